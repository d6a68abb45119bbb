// POSTs JSON to a model server with a per-attempt timeout and retries on 429/5xx and dropped connections, honouring
// Retry-After; every failure ends as a CuratorError whose code says what went wrong.
import { CuratorError } from '../../../shared/errors';

export interface HttpOptions {
  timeoutMs: number;
  maxRetries: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** For tests and hosts that bring their own; default the global fetch. */
  fetch?: typeof fetch;
  /** Waits between attempts; injectable so tests need not sleep. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const maxRetryAfterMs = 60_000;

export function retryDelayMs(attempt: number, retryAfter: string | null): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxRetryAfterMs);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - Date.now()), maxRetryAfterMs);
  }
  // 0.5 s, 1 s, 2 s, ... capped at 8 s, with jitter so clients that failed together do not retry together.
  return Math.min(500 * 2 ** attempt, 8000) * (0.75 + Math.random() * 0.5);
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new CuratorError('CANCELLED', 'Cancelled'));
      },
      { once: true },
    );
  });

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export async function postJson(url: string, body: unknown, options: HttpOptions): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  let last: CuratorError | undefined;
  for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
    if (options.signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled');
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (error) {
      if (options.signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled');
      last = timeout.aborted
        ? new CuratorError('TIMEOUT', `${url} did not answer within ${options.timeoutMs} ms`, {
            url,
            timeoutMs: options.timeoutMs,
          })
        : new CuratorError('ENDPOINT_UNREACHABLE', `Cannot reach ${url}: ${(error as Error).message}`, {
            url,
          });
      if (attempt < options.maxRetries) await sleep(retryDelayMs(attempt, null), options.signal);
      continue;
    }
    if (res.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new CuratorError('MODEL_ERROR', `${url} answered with malformed JSON`, {
          url,
          excerpt: text.slice(0, 200),
        });
      }
    }
    const details = { url, status: res.status, excerpt: text.slice(0, 500) };
    if (res.status === 401 || res.status === 403) {
      throw new CuratorError('UNAUTHORIZED', `${url} refused the credentials (HTTP ${res.status})`, details);
    }
    last = new CuratorError(
      'MODEL_ERROR',
      `${url} answered HTTP ${res.status}: ${text.slice(0, 200)}`,
      details,
    );
    if (!retryable(res.status)) throw last;
    const retryAfter = res.headers.get('retry-after');
    if (attempt < options.maxRetries) await sleep(retryDelayMs(attempt, retryAfter), options.signal);
  }
  throw last ?? new CuratorError('INTERNAL', `No attempt was made to reach ${url}`);
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
