// A fetch that reads the whole answer itself and stops at a byte limit, so a runaway or hostile server cannot make
// us buffer (and then store) megabytes: the openai client only ever sees answers that fit.

export class ResponseTooLargeError extends Error {
  constructor(
    readonly limitBytes: number,
    readonly seenBytes: number,
  ) {
    super(`The endpoint's answer is larger than the limit of ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

type Fetch = typeof globalThis.fetch;

const nullBodyStatuses = new Set([101, 204, 205, 304]);

export function boundedFetch(limitBytes: number, inner: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(limitBytes, declared);
    }
    const body = nullBodyStatuses.has(response.status) ? null : await readAtMost(response, limitBytes);
    const headers = new Headers(response.headers);
    // The body below is already decoded and may differ in length from what the server declared.
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

async function readAtMost(response: Response, limitBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(limitBytes, total);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
