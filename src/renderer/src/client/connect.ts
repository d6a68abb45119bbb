// Chooses the transport once at start: the preload bridge in the desktop app, HTTP/SSE in a browser.
import { CuratorClient } from './client';
import { httpTransport, readAccessToken } from './http-transport';
import { ipcTransport } from './ipc-transport';

export type Connection = { client: CuratorClient } | { client: null; problem: string };

export function connect(): Connection {
  if (window.curator) return { client: new CuratorClient(ipcTransport(window.curator)) };
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
