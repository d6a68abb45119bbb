// The MCP server over Streamable HTTP: the real CLI (`skill-curator mcp --http`) on 127.0.0.1 with a random token,
// driven by the SDK's own client; a request without the token, with a wrong one, or for another Host is refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerBehaviour } from './mcp-behaviour';
import { cliArgs, mcpLibrary, repoRoot, type McpLibrary } from './mcp-fixture';

let lib: McpLibrary;
let server: ChildProcess;
let url: URL;
let token: string;
let client: Client;

/** Starts the CLI and reads the endpoint and token it prints. */
function startServer(dataDir: string): Promise<{ child: ChildProcess; url: URL; token: string }> {
  const child = spawn(process.execPath, cliArgs(dataDir, 'mcp', '--http', '--preset', 'offline'), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const endpoint = /MCP \(Streamable HTTP\) on (\S+)/.exec(out)?.[1];
      const key = /Token: (\S+)/.exec(out)?.[1];
      if (endpoint && key) resolve({ child, url: new URL(endpoint), token: key });
    });
    child.on('exit', (code) => reject(new Error(`mcp --http exited ${code}: ${err}`)));
  });
}

function connectWith(headers: Record<string, string>): Promise<Client> {
  const c = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  return c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } })).then(() => c);
}

beforeAll(async () => {
  lib = await mcpLibrary();
  ({ child: server, url, token } = await startServer(lib.dataDir));
  client = await connectWith({ Authorization: `Bearer ${token}` });
});
afterAll(async () => {
  await client?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  lib?.close();
});

describe('skill-curator mcp --http', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/mcp');
  });

  mcpServerBehaviour(
    () => client,
    () => lib,
  );

  it('refuses a request without the token, with a wrong token, or for another Host', async () => {
    await expect(connectWith({})).rejects.toThrow(/401|Missing or wrong token/);
    await expect(connectWith({ Authorization: `Bearer ${token}x` })).rejects.toThrow(
      /401|Missing or wrong token/,
    );

    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const bare = await post({});
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { message: string } }).error.message).toMatch(
      /Missing or wrong token/,
    );
    // The same request with the token is answered, so the refusals above are the token's.
    const authorised = await post({ Authorization: `Bearer ${token}` });
    expect(authorised.status).toBe(200);
    expect(await authorised.json()).toMatchObject({ result: { serverInfo: { name: 'skill-curator' } } });
    // A page on another origin that resolves to loopback still sends its own Host.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: { Host: 'evil.example', Authorization: `Bearer ${token}` },
        },
        (res) => resolve(res.statusCode!),
      );
      req.on('error', reject);
      req.end(JSON.stringify(initialize));
    });
    expect(rebound).toBe(403);
  });
});
