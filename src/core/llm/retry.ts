// When to try a request again: exponential backoff with jitter, or exactly what the server's Retry-After asks.

export interface BackoffOptions {
  /** 0-based: 0 is the wait before the first retry. */
  retry: number;
  maxDelayMs: number;
  /** Value of the Retry-After header, if the server sent one. */
  retryAfter?: string | null;
  /** Value of the non-standard retry-after-ms header some gateways send. */
  retryAfterMs?: string | null;
  nowMs: number;
  random: () => number;
}

const baseDelayMs = 500;

/** Milliseconds to wait before the next attempt, never above maxDelayMs. */
export function retryDelayMs(o: BackoffOptions): number {
  const asked = serverAskedDelayMs(o.retryAfter, o.retryAfterMs, o.nowMs);
  if (asked !== undefined) return Math.min(asked, o.maxDelayMs);
  const exponential = Math.min(o.maxDelayMs, baseDelayMs * 2 ** o.retry);
  // Jitter over the upper half spreads out workers that failed together without collapsing the wait to zero.
  return Math.round(exponential * (0.5 + 0.5 * o.random()));
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function serverAskedDelayMs(
  retryAfter: string | null | undefined,
  retryAfterMs: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (retryAfterMs && /^\s*\d+(\.\d+)?\s*$/.test(retryAfterMs)) return Math.max(0, Number(retryAfterMs));
  if (!retryAfter) return undefined;
  const text = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.max(0, Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** A sleep that ends early (rejecting) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('Aborted', 'AbortError');
}
