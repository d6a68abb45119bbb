// The MCP server over stdio, as an agent starts it: the real CLI (`skill-curator mcp --preset offline`) driven by the
// SDK's own client on a real library file.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerBehaviour } from './mcp-behaviour';
import { cliArgs, mcpLibrary, repoRoot, toolJson, unverified, type McpLibrary } from './mcp-fixture';

let lib: McpLibrary;
let client: Client;

async function connect(...options: string[]): Promise<Client> {
  const c = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(lib.dataDir, 'mcp', '--preset', 'offline', ...options),
      cwd: repoRoot,
      stderr: 'pipe',
    }),
  );
  return c;
}

beforeAll(async () => {
  lib = await mcpLibrary();
  client = await connect();
});
afterAll(async () => {
  await client?.close();
  lib?.close();
});

describe('skill-curator mcp over stdio', () => {
  mcpServerBehaviour(
    () => client,
    () => lib,
  );

  it('serves every skill with --allow all, and says so', async () => {
    const all = await connect('--allow', 'all');
    try {
      const { tools } = await all.listTools();
      for (const t of tools) expect(t.description).toContain('serves every skill in the curated library');
      const read = toolJson(await all.callTool({ name: 'read_skill', arguments: { name: unverified.name } }));
      expect(read).toMatchObject({
        name: unverified.name,
        files: [{ path: 'SKILL.md' }, { path: 'references/levels.md' }],
      });
    } finally {
      await all.close();
    }
  });
});
