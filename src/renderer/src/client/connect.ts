// Chooses the transport once at start: the preload bridge in the desktop app, HTTP/SSE in a browser.
import { CuratorClient } from './client';
import { httpTransport, readAccessToken } from './http-transport';
import { ipcTransport } from './ipc-transport';

export type Connection = { client: CuratorClient } | { client: null; problem: string };

/**
 * The address `serve` prints differs from the open tab's only after the '#', so pasting it there (a restarted server,
 * a new token) changes the hash without loading the page: take the new token and start again with it.
 */
function reloadOnNewToken(): void {
  window.addEventListener('hashchange', () => {
    if (!/(?:^#|&)token=/.test(window.location.hash)) return;
    readAccessToken();
    window.location.reload();
  });
}

export function connect(): Connection {
  if (window.curator) return { client: new CuratorClient(ipcTransport(window.curator)) };
  reloadOnNewToken();
  const token = readAccessToken();
  if (!token) {
    return {
      client: null,
      problem:
        'No access token. Open the address that `skill-curator serve` printed (it ends with #token=…), or restart the server.',
    };
  }
  return { client: new CuratorClient(httpTransport(window.location.origin, token)) };
}
