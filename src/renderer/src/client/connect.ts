// Chooses the transport once at start: the preload bridge in the desktop app, HTTP/SSE in a browser.
import { CuratorClient } from './client';
import { httpTransport, readAccessToken } from './http-transport';
import { ipcTransport } from './ipc-transport';

export type Connection = { client: CuratorClient } | { client: null; problem: string };

/**
 * The address `serve` prints differs from the open tab's only after the '#', so pasting it there (a restarted server,
 * a new token) changes the hash without loading the page: take the new token and start again with it.
 */
function reloadOnNewToken(inUse: string | null): void {
  window.addEventListener('hashchange', () => {
    if (!/(?:^#|&)token=/.test(window.location.hash)) return;
    if (readAccessToken() !== inUse) window.location.reload();
    else window.location.hash = '#/library'; // the same address again: no need to start over
  });
}

export function connect(): Connection {
  if (window.curator) return { client: new CuratorClient(ipcTransport(window.curator)) };
  const token = readAccessToken();
  reloadOnNewToken(token);
  if (!token) {
    return {
      client: null,
      problem:
        'No access token. Open the address that `skill-curator serve` printed (it ends with #token=…), or restart the server.',
    };
  }
  return { client: new CuratorClient(httpTransport(window.location.origin, token)) };
}
