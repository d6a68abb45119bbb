// One JSON-RPC message over the stdio cap does not end the MCP server: the real CLI answers that request with
// "Invalid Request" saying why, notes it on stderr, and serves the next call.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxStdioLineBytes } from '../../src/mcp/stdio-line-guard';
import { cliArgs, mcpLibrary, repoRoot, type McpLibrary } from './mcp-fixture';

let lib: McpLibrary;

beforeAll(async () => {
  lib = await mcpLibrary();
}, 60_000);
afterAll(() => lib?.close());

describe('skill-curator mcp over stdio, sent a message over its cap', () => {
  it('refuses that message with a JSON-RPC error and keeps serving', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(lib.dataDir, 'mcp', '--preset', 'offline'),
      cwd: repoRoot,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    const client = new Client({ name: 'oversize-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const huge = 'x'.repeat(maxStdioLineBytes + 1024);
      await expect(client.callTool({ name: 'search_skills', arguments: { query: huge } })).rejects.toThrow(
        /-32600.*longer than the 10\.0 MiB this server reads/,
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('read_skill');
      expect(stderr).toContain('refused a JSON-RPC message');
    } finally {
      await client.close();
    }
  }, 60_000);
});
