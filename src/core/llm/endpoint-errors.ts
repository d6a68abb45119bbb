// Turns whatever the openai client or the network threw into a CuratorError a curator can act on, in plain words.
// The error classes come from their own small module: the client itself loads only when a request is made.
import { APIError, APIConnectionError, APIUserAbortError } from 'openai/core/error';
import { CuratorError, type ErrorCode } from '../../shared/errors';
import { ResponseTooLargeError } from './bounded-fetch';

export type EndpointProblem =
  | 'dns'
  | 'refused'
  | 'connection-lost'
  | 'bad-port'
  | 'tls'
  | 'timeout'
  | 'unauthorized'
  | 'forbidden'
  | 'model-not-found'
  | 'not-found'
  | 'rate-limited'
  | 'server-error'
  | 'bad-request'
  | 'too-large'
  | 'not-openai'
  | 'cancelled'
  | 'other';

export interface EndpointFailure {
  problem: EndpointProblem;
  code: ErrorCode;
  message: string;
  /** Worth another attempt: the same request may succeed later. */
  retryable: boolean;
  status?: number;
  headers?: Headers;
}

export interface FailureContext {
  baseURL: string;
  model: string;
  timeoutMs: number;
}

export function classifyFailure(error: unknown, ctx: FailureContext): EndpointFailure {
  const host = hostOf(ctx.baseURL);
  const tooLarge = findInChain(error, (e) => e instanceof ResponseTooLargeError) as
    ResponseTooLargeError | undefined;
  if (tooLarge) {
    return fail(
      'too-large',
      'TOO_LARGE',
      false,
      `${tooLarge.message}; it was refused and nothing was stored.`,
    );
  }
  if (error instanceof APIUserAbortError) return fail('cancelled', 'CANCELLED', false, 'Cancelled.');
  if (error instanceof APIConnectionError) return connectionFailure(error, host, ctx);
  if (error instanceof APIError && typeof error.status === 'number') return statusFailure(error, ctx);
  if (error instanceof SyntaxError) {
    return fail(
      'not-openai',
      'LLM_ERROR',
      false,
      `The server at ${host} answered with something that is not JSON; is ${ctx.baseURL} an OpenAI-compatible endpoint?`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail('other', 'LLM_ERROR', false, `The request to ${host} failed: ${message}`);
}

function connectionFailure(error: APIConnectionError, host: string, ctx: FailureContext): EndpointFailure {
  const codes = errorCodes(error);
  const has = (...wanted: string[]) => wanted.some((w) => codes.some((c) => c === w || c.startsWith(w)));
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL')) {
    return fail(
      'dns',
      'ENDPOINT_UNREACHABLE',
      false,
      `The host name "${host}" could not be found (DNS lookup failed); check the base URL.`,
    );
  }
  if (has('ECONNREFUSED')) {
    return fail(
      'refused',
      'ENDPOINT_UNREACHABLE',
      true,
      `Nothing is listening at ${host} (connection refused); is the server running?`,
    );
  }
  if (has('CERT_', 'ERR_TLS', 'UNABLE_TO_VERIFY', 'DEPTH_ZERO', 'SELF_SIGNED', 'ERR_SSL')) {
    return fail(
      'tls',
      'ENDPOINT_UNREACHABLE',
      false,
      `The TLS connection to ${host} failed (${codes.join(', ')}); check the certificate or use http:// for a local server.`,
    );
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT')) {
    return timeoutFailure(ctx);
  }
  if (
    has(
      'ECONNRESET',
      'EPIPE',
      'UND_ERR_SOCKET',
      'UND_ERR_CLOSED',
      'ECONNABORTED',
      'EHOSTUNREACH',
      'ENETUNREACH',
    )
  ) {
    return fail(
      'connection-lost',
      'ENDPOINT_UNREACHABLE',
      true,
      `The connection to ${host} was lost before an answer came (${codes.join(', ')}).`,
    );
  }
  // Fetch refuses some ports outright (the Fetch standard's "bad ports": 9, 25, 6000, …): no retry can help.
  if (innermostMessage(error) === 'bad port')
    return fail(
      'bad-port',
      'ENDPOINT_UNREACHABLE',
      false,
      `The port of ${host} is one that fetch never connects to (a "bad port" of the Fetch standard, like 9, 25 or 6000); serve the endpoint on another port.`,
    );
  return fail(
    'connection-lost',
    'ENDPOINT_UNREACHABLE',
    true,
    `Could not talk to ${host}: ${innermostMessage(error)}`,
  );
}

export function timeoutFailure(ctx: FailureContext): EndpointFailure {
  return fail(
    'timeout',
    'TIMEOUT',
    true,
    `${hostOf(ctx.baseURL)} sent no complete answer within ${ctx.timeoutMs / 1000} s.`,
  );
}

function statusFailure(error: APIError, ctx: FailureContext): EndpointFailure {
  const status = error.status as number;
  const text = serverMessage(error);
  const said = text ? ` The server said: ${text}${/[.!?]$/.test(text) ? '' : '.'}` : '';
  const withHeaders = (f: EndpointFailure): EndpointFailure => ({
    ...f,
    status,
    headers: error.headers as Headers | undefined,
  });
  if (status === 401)
    return withHeaders(
      fail(
        'unauthorized',
        'UNAUTHORIZED',
        false,
        `The endpoint refused the API key (401); check the key.${said}`,
      ),
    );
  if (status === 403)
    return withHeaders(
      fail(
        'forbidden',
        'UNAUTHORIZED',
        false,
        `The API key may not use this endpoint or model (403).${said}`,
      ),
    );
  if (status === 404) {
    const aboutModel = /model/i.test(text) || (error.code ?? '') === 'model_not_found';
    return withHeaders(
      aboutModel
        ? fail(
            'model-not-found',
            'NOT_FOUND',
            false,
            `The endpoint has no model named "${ctx.model}" (404).${said}`,
          )
        : fail(
            'not-found',
            'NOT_FOUND',
            false,
            `${ctx.baseURL} has no chat-completions route (404); OpenAI-compatible base URLs usually end in /v1.${said}`,
          ),
    );
  }
  if (status === 408 || status === 429) {
    const what = status === 429 ? 'is rate-limiting us (429)' : 'timed out the request (408)';
    return withHeaders(fail('rate-limited', 'UNAVAILABLE', true, `The endpoint ${what}.${said}`));
  }
  if (status === 413)
    return withHeaders(
      fail('bad-request', 'TOO_LARGE', false, `The request is too large for the endpoint (413).${said}`),
    );
  if (status >= 500)
    return withHeaders(
      fail('server-error', 'UNAVAILABLE', true, `The endpoint had an internal error (${status}).${said}`),
    );
  return withHeaders(
    fail('bad-request', 'LLM_ERROR', false, `The endpoint rejected the request (${status}).${said}`),
  );
}

export function failureToError(f: EndpointFailure, attempts: number): CuratorError {
  return new CuratorError(f.code, f.message, { problem: f.problem, status: f.status, attempts });
}

function fail(
  problem: EndpointProblem,
  code: ErrorCode,
  retryable: boolean,
  message: string,
): EndpointFailure {
  return { problem, code, retryable, message };
}

function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw =
    typeof body?.message === 'string' ? body.message : typeof error.error === 'string' ? error.error : '';
  return raw.replace(/\s+/g, ' ').trim().slice(0, 300);
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  walk(error, (e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    return false;
  });
  return codes;
}

function findInChain(error: unknown, test: (e: unknown) => boolean): unknown {
  let found: unknown;
  walk(error, (e) => (test(e) ? ((found = e), true) : false));
  return found;
}

/** Visits an error, its causes and an AggregateError's members (undici reports each address tried). */
function walk(error: unknown, visit: (e: unknown) => boolean, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 8) return false;
  if (visit(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (walk(cause, visit, depth + 1)) return true;
  if (Array.isArray(errors)) return errors.some((e) => walk(e, visit, depth + 1));
  return false;
}

function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  walk(error, (e) => {
    if (e instanceof Error && e.message) message = e.message;
    return false;
  });
  return message;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}
