// The MCP server over Streamable HTTP on 127.0.0.1, with the HTTP host's rule: a bearer token on every request and
// the loopback Host header (DNS rebinding). Stateless: each POST gets its own server and transport over the shared
// core, so nothing is kept between requests but the library.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { sameToken } from '../server/http-host';
import type { CuratorMcpContext } from './mcp-context';
import { createCuratorMcpServer } from './server';

export interface McpHttpHost {
  /** The endpoint clients connect to (…/mcp). */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
export const MCP_PATH = '/mcp';

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Why the request is refused before any MCP message is read, or null. */
function refusal(req: IncomingMessage, port: number, token: string): [number, string] | null {
  const host = req.headers.host ?? '';
  if (host !== `${HOST}:${port}` && host !== `localhost:${port}`) return [403, 'Unexpected Host header'];
  const url = new URL(req.url ?? '/', `http://${HOST}`);
  if (url.pathname !== MCP_PATH) return [404, `Nothing at ${url.pathname}; the MCP endpoint is ${MCP_PATH}`];
  const auth = req.headers.authorization ?? '';
  if (!sameToken(auth.startsWith('Bearer ') ? auth.slice(7) : null, token))
    return [401, 'Missing or wrong token (send Authorization: Bearer <token>)'];
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  if (req.method !== 'POST') return [405, 'Method not allowed: send MCP messages with POST'];
  return null;
}

export async function startMcpHttpHost(
  mcp: CuratorMcpContext,
  options: { port?: number; token?: string } = {},
): Promise<McpHttpHost> {
  const token = options.token ?? randomBytes(24).toString('hex');
  let port = 0;
  // Stateless requests after initialize carry no client name (no session). For the usage record the name an
  // initialize gave is kept per connection (a client's kept-alive requests), and else taken when only one client
  // has initialized here: a guess only where it cannot be wrong.
  const byConnection = new WeakMap<Socket, Implementation>();
  const seen = new Map<string, Implementation>();
  const clientOf = (socket: Socket): Implementation | undefined =>
    byConnection.get(socket) ?? (seen.size === 1 ? [...seen.values()][0] : undefined);
  const server = createServer(async (req, res) => {
    const refused = refusal(req, port, token);
    if (refused) return refuse(res, ...refused);
    const mcpServer = createCuratorMcpServer(mcp, { client: () => clientOf(req.socket) });
    const remember = () => {
      const client = mcpServer.server.getClientVersion();
      if (!client) return;
      byConnection.set(req.socket, client);
      if (seen.size < 100) seen.set(JSON.stringify([client.name, client.version]), client);
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      remember();
      void transport.close();
      void mcpServer.close();
    });
    try {
      await mcpServer.connect(transport);
      await transport.handleRequest(req, res);
      remember();
    } catch (error) {
      mcp.core.context.logger.warn('MCP request failed', { error: String(error) });
      if (!res.headersSent) refuse(res, 500, 'Internal server error');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}${MCP_PATH}`,
    port,
    token,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
