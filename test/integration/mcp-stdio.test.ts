// The MCP server over stdio, as an agent starts it: the real CLI (`skill-curator mcp --preset offline`) driven by the
// SDK's own client on a real library file.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerBehaviour } from './mcp-behaviour';
import { spawnSync } from 'node:child_process';
import {
  cliArgs,
  mcpLibrary,
  profile,
  repoRoot,
  toolError,
  toolJson,
  unverified,
  type McpLibrary,
} from './mcp-fixture';

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

  it("serves only a profile's skills with --profile: search, select and read follow it, and the tools say so", async () => {
    const served = await connect('--profile', profile.name);
    try {
      const { tools } = await served.listTools();
      for (const t of tools)
        expect(t.description).toContain(`only the skills of the curator's profile "${profile.name}"`);
      const listed = toolJson(await served.callTool({ name: 'list_profiles', arguments: {} }));
      expect(listed).toMatchObject({
        rule: { kind: 'profile', name: profile.name },
        profiles: [{ name: profile.name, skillCount: 2 }],
      });
      // The profile serves the unverified skill and refuses a verified one outside it.
      const hits = toolJson(
        await served.callTool({ name: 'search_skills', arguments: { query: 'theodolite coffee' } }),
      );
      expect((hits.hits as { name: string }[]).map((h) => h.name).sort()).toEqual([...profile.skills].sort());
      toolJson(await served.callTool({ name: 'read_skill', arguments: { name: unverified.name } }));
      expect(
        toolError(
          await served.callTool({
            name: 'read_skill',
            arguments: { name: 'household-heat-object-microwave' },
          }),
        ),
      ).toMatch(
        /^error NOT_FOUND: No skill "household-heat-object-microwave" is served here\. .*profile "surveying"/,
      );
      const picked = toolJson(
        await served.callTool({
          name: 'select_skills',
          arguments: { task: lib.task.task, variant: 'no-parse', k: 5 },
        }),
      );
      const names = (picked.answer as { name: string }[]).map((p) => p.name);
      expect(names.length).toBeGreaterThan(0);
      for (const n of names) expect(profile.skills).toContain(n);
    } finally {
      await served.close();
    }
  });

  it('refuses to start for an unknown profile, saying which', () => {
    const run = spawnSync(process.execPath, cliArgs(lib.dataDir, 'mcp', '--profile', 'nope'), {
      cwd: repoRoot,
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error NOT_FOUND: No profile named "nope"');
    expect(run.stdout).toBe('');
  });
});
