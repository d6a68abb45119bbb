// Browser mode: POST /api/<method> with the bearer token; events over server-sent events.
import { isApiErrorData } from '../../../shared/errors';
import type { CuratorEvent } from '../../../shared/events';
import type { InvokeOutcome } from '../../../preload/bridge';
import type { Transport } from './transport';

const tokenKey = 'skill-curator.token';

/** Takes the token from `#token=…` (then removes it from the address bar) or from this tab's storage. */
export function readAccessToken(): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (match?.[1]) {
    const token = decodeURIComponent(match[1]);
    sessionStorage.setItem(tokenKey, token);
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/library`);
    return token;
  }
  return sessionStorage.getItem(tokenKey);
}

export function httpTransport(baseUrl: string, token: string): Transport {
  return {
    kind: 'http',
    async invoke(method, req): Promise<InvokeOutcome> {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(req ?? {}),
        });
      } catch {
        return {
          ok: false,
          error: {
            code: 'ENDPOINT_UNREACHABLE',
            message: 'The Skill Curator server does not answer. Is `skill-curator serve` still running?',
          },
        };
      }
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON (a proxy's error page): reported by status below.
      }
      if (response.ok) return { ok: true, result: body };
      if (isApiErrorData(body)) return { ok: false, error: body };
      return {
        ok: false,
        error: {
          code: response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL',
          message: `HTTP ${response.status}`,
        },
      };
    },
    async upload(file) {
      try {
        const response = await fetch(`${baseUrl}/api/upload?name=${encodeURIComponent(file.name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
          body: file,
        });
        const body = (await response.json().catch(() => null)) as unknown;
        if (response.ok) return { ok: true, result: body };
        if (isApiErrorData(body)) return { ok: false, error: body };
        return { ok: false, error: { code: 'INTERNAL', message: `HTTP ${response.status}` } };
      } catch {
        return {
          ok: false,
          error: { code: 'ENDPOINT_UNREACHABLE', message: 'The upload did not reach the server' },
        };
      }
    },
    subscribe(listener) {
      const source = new EventSource(`${baseUrl}/api/events?token=${encodeURIComponent(token)}`);
      source.onmessage = (message: MessageEvent<string>) => {
        try {
          listener(JSON.parse(message.data) as CuratorEvent);
        } catch {
          // A malformed event is dropped; the next one still arrives.
        }
      };
      return () => source.close();
    },
  };
}
