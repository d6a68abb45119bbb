// Usage from the real CLI: agents call the server over stdio and over Streamable HTTP (stateless: each request its
// own server, the client named once in initialize), then the curator reads it with `usage`, `usage calls` and CSV.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliArgs,
  httpMcpClient,
  mcpLibrary,
  profile,
  repoRoot,
  toolJson,
  unverified,
  type McpLibrary,
} from './mcp-fixture';

const run = promisify(execFile);
let lib: McpLibrary;
let runId: number;
const closers: (() => Promise<void>)[] = [];

const cli = async (...args: string[]) =>
  (await run(process.execPath, cliArgs(lib.dataDir, ...args), { cwd: repoRoot })).stdout;

async function overStdio(name: string, ...args: string[]): Promise<Client> {
  const client = new Client({ name, version: '0.9' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(lib.dataDir, 'mcp', '--preset', 'offline', ...args),
      cwd: repoRoot,
      stderr: 'pipe',
    }),
  );
  closers.push(() => client.close());
  return client;
}

async function overHttp(name: string): Promise<Client> {
  const { client, close } = await httpMcpClient(lib.dataDir, { name, version: '3.0' }, '--allow', 'all');
  closers.push(close);
  return client;
}

beforeAll(async () => {
  lib = await mcpLibrary();
  const stdio = await overStdio('stdio-agent');
  const answer = toolJson(
    await stdio.callTool({ name: 'select_skills', arguments: { task: lib.task.task, ...lib.task.parse } }),
  );
  runId = answer.runId as number;
  const surveying = await overStdio('survey-agent', '--profile', profile.name);
  await surveying.callTool({ name: 'read_skill', arguments: { name: 'household-make-coffee' } });
  const http = await overHttp('http-agent');
  // Each POST is answered by a fresh server; only the first carried initialize.
  await http.callTool({ name: 'search_skills', arguments: { query: 'theodolite' } });
  await http.callTool({ name: 'read_skill', arguments: { name: unverified.name } });
  for (const close of closers.splice(0).reverse()) await close();
}, 180_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  lib?.close();
});

describe('the usage CLI over calls from real MCP clients', () => {
  it('names each client, the one over stateless HTTP included, and the never-used skills of a served profile', async () => {
    const summary = JSON.parse(await cli('--json', 'usage')) as {
      calls: number;
      clients: { client: string; calls: number }[];
      skills: { name: string; offered: number; selected: number; read: number }[];
      neverUsed: { profile: string; skills: { name: string }[] }[];
    };
    expect(summary.calls).toBe(4);
    expect(summary.clients).toEqual(
      expect.arrayContaining([
        { client: 'http-agent 3.0', calls: 2 },
        { client: 'stdio-agent 0.9', calls: 1 },
        { client: 'survey-agent 0.9', calls: 1 },
      ]),
    );
    expect(summary.skills.find((s) => s.name === unverified.name)).toMatchObject({ offered: 1, read: 1 });
    expect(summary.neverUsed).toEqual([
      expect.objectContaining({
        profile: profile.name,
        skills: [{ skillId: expect.any(Number), name: unverified.name }],
      }),
    ]);

    const text = await cli('usage');
    expect(text).toMatch(/4 calls/);
    expect(text).toMatch(/by client: .*http-agent 3\.0 2/);
    expect(text).toContain(
      `Never selected or read under profile "${profile.name}": 1 of its 2 skills — ${unverified.name}`,
    );
    expect(text).toMatch(/Calls are kept 90 days/);
  });

  it('lists the selections behind a skill’s figure with their run, and writes CSV', async () => {
    const heat = 'household-heat-object-microwave';
    const calls = await cli('usage', 'calls', '--skill', heat, '--role', 'selected');
    expect(calls).toContain(`select_skills run #${runId}  stdio-agent 0.9  (verified)`);
    expect(calls).toContain(JSON.stringify(lib.task.task));

    const out = path.join(lib.dataDir, 'usage.csv');
    await cli('usage', '--csv', '--out', out);
    const csv = readFileSync(out, 'utf8').split('\r\n');
    expect(csv[0]).toBe('skill_id,name,in_library,offered,selected,read,last_used_at');
    expect(csv.some((l) => new RegExp(`^\\d+,${heat},true,0,1,0,`).test(l))).toBe(true);
    const perCall = await cli('usage', 'calls', '--csv');
    expect(perCall).toMatch(
      new RegExp(`,select_skills,stdio-agent 0\\.9,verified,,.*,${runId},\\d+,${heat},selected,`),
    );
  });

  it('refuses a period it cannot read, with exit 1 and what to type', async () => {
    const failed = await run(process.execPath, cliArgs(lib.dataDir, 'usage', '--from', 'yesterday'), {
      cwd: repoRoot,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(/"yesterday" is not a date \(2026-12-01\)/);
  });
});
