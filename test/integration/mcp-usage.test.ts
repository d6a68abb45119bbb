// Usage the curator can see: every MCP call an agent makes (tools and the Skills extension) is stored in the library
// with its client, rule and skills, and read back per skill, period and served profile, with the never-used skills
// of a served profile, the calls behind a figure (a selection's run opens in the lab), CSV, and retention.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCore, type Core } from '../../src/core';
import { createMcpContext } from '../../src/mcp/mcp-context';
import { libraryProfiles } from '../../src/mcp/profile-source';
import { createCuratorMcpServer } from '../../src/mcp/server';
import type { AllowRule } from '../../src/mcp/allowed-skills';
import { mcpLibrary, profile, repoRoot, toolJson, unverified, type McpLibrary } from './mcp-fixture';

let lib: McpLibrary;
let core: Core;
let now = new Date('2026-12-01T10:00:00Z');
const clients: Client[] = [];

async function agent(name: string, rule: AllowRule): Promise<Client> {
  const mcp = await createMcpContext({
    core,
    rule,
    profiles: libraryProfiles(core.context),
    preset: 'offline',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCuratorMcpServer(mcp).connect(serverSide);
  const client = new Client({ name, version: '1.2.3' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }).then(toolJson);

let runId: number;
let selected: string[];

beforeAll(async () => {
  lib = await mcpLibrary();
  core = createCore({
    dataDir: lib.dataDir,
    resourcesDir: path.join(repoRoot, 'resources'),
    clock: () => now,
  });

  const verified = await agent('kitchen-agent', { kind: 'verified' });
  await call(verified, 'search_skills', { query: 'coffee' });
  const answer = await call(verified, 'select_skills', { task: lib.task.task, ...lib.task.parse });
  runId = answer.runId as number;
  selected = (answer.answer as { name: string }[]).map((p) => p.name);
  await call(verified, 'read_skill', { name: selected[0] });
  await verified.request({ method: 'skills/list', params: {} } as never, z.object({}).passthrough());
  await verified.readResource({ uri: `skill://${selected[1]}/SKILL.md` });

  now = new Date('2026-12-03T10:00:00Z');
  const surveyor = await agent('survey-agent', { kind: 'profile', name: profile.name });
  await call(surveyor, 'read_skill', { name: 'household-make-coffee' });
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await core?.close();
  lib?.close();
});

describe('the usage record', () => {
  it('counts every call by tool and client, and each skill offered, selected and read', async () => {
    const s = await core['usage.summary']({});
    expect(s.calls).toBe(6);
    expect(Object.fromEntries(s.byTool.map((t) => [t.tool, t.calls]))).toEqual({
      search_skills: 1,
      select_skills: 1,
      read_skill: 2,
      'skills/list': 1,
      'resources/read': 1,
    });
    expect(s.clients).toEqual([
      { client: 'kitchen-agent 1.2.3', calls: 5 },
      { client: 'survey-agent 1.2.3', calls: 1 },
    ]);
    const row = (name: string) => s.skills.find((r) => r.name === name);
    expect(selected.length).toBeGreaterThanOrEqual(2);
    // Read: selected[0] by read_skill, selected[1] by resources/read, the coffee skill by the surveying agent.
    const reads = (name: string) =>
      [selected[0], selected[1], 'household-make-coffee'].filter((n) => n === name).length;
    for (const name of selected)
      expect(row(name)).toMatchObject({ selected: 1, read: reads(name), inLibrary: true });
    expect(row('household-make-coffee')).toMatchObject({ offered: 1, read: reads('household-make-coffee') });
    // The verified rule never served the unverified skill, so no call used it.
    expect(row(unverified.name)).toBeUndefined();
  });

  it('names the skills of a served profile that no agent under it selected or read', async () => {
    const s = await core['usage.summary']({});
    expect(s.servedProfiles).toEqual([profile.name]);
    expect(s.neverUsed).toEqual([
      {
        profile: profile.name,
        of: 2,
        skills: [
          { skillId: (await core['library.get']({ name: unverified.name })).id, name: unverified.name },
        ],
      },
    ]);
    const only = await core['usage.summary']({ profile: profile.name });
    expect(only.calls).toBe(1);
    expect(only.skills.map((r) => r.name)).toEqual(['household-make-coffee']);
  });

  it('covers a chosen period: a date as the end takes that whole day', async () => {
    expect((await core['usage.summary']({ to: '2026-12-01' })).calls).toBe(5);
    expect((await core['usage.summary']({ from: '2026-12-02' })).calls).toBe(1);
    expect((await core['usage.summary']({ from: '1d' })).calls).toBe(1);
    await expect(core['usage.summary']({ from: 'last tuesday' })).rejects.toThrow(/is not a date/);
    await expect(core['usage.summary']({ from: '2026-12-05', to: '2026-12-01' })).rejects.toThrow(/starts/);
  });

  it('lists the calls behind a figure, with the run a selection opens in the lab', async () => {
    const id = (await core['library.get']({ name: selected[0]! })).id;
    const page = await core['usage.calls']({ skillId: id, role: 'selected' });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      tool: 'select_skills',
      query: lib.task.task,
      client: 'kitchen-agent 1.2.3',
      rule: 'verified',
      runId,
    });
    const run = await core['select.get']({ runId });
    expect(run.answer.map((a) => a.name)).toEqual(selected);
    const reads = await core['usage.calls']({ skillId: id, role: 'read' });
    expect(reads.items.map((c) => [c.tool, c.skills[0]!.path])).toEqual([['read_skill', 'SKILL.md']]);
  });

  it('exports CSV per skill and per call, with agent text that cannot run as a spreadsheet formula', async () => {
    const agentText = await agent('csv-agent', { kind: 'all' });
    await call(agentText, 'search_skills', { query: '=HYPERLINK("http://x.invalid","coffee")' });
    const skills = await core['usage.csv']({ kind: 'skills' });
    expect(skills.fileName).toMatch(/^usage-skills-start-to-2026-12-03\.csv$/);
    expect(skills.text.split('\r\n')[0]).toBe('skill_id,name,in_library,offered,selected,read,last_used_at');
    expect(skills.text).toMatch(new RegExp(`\\r\\n\\d+,${selected[0]},true,\\d+,1,1,`));
    const calls = await core['usage.csv']({ kind: 'calls' });
    expect(calls.text).toContain(`"'=HYPERLINK(""http://x.invalid"",""coffee"")"`);
    expect(calls.text).not.toMatch(/,=HYPERLINK/);
  });

  it('keeps calls for the set number of days, and records none at 0', async () => {
    await core['settings.update']({ patch: { usage: { retentionDays: 3 } } });
    now = new Date('2026-12-04T09:00:00Z');
    const before = (await core['usage.summary']({})).calls;
    now = new Date('2026-12-05T12:00:00Z');
    // The calls of 1 December are past three days now; those of the 3rd are kept.
    const after = await core['usage.summary']({});
    expect(after.calls).toBe(before - 5);
    expect(after.oldestCallAt).toBe('2026-12-03T10:00:00.000Z');

    await core['settings.update']({ patch: { usage: { retentionDays: 0 } } });
    const quiet = await agent('quiet-agent', { kind: 'all' });
    await call(quiet, 'search_skills', { query: 'coffee' });
    expect((await core['usage.summary']({})).calls).toBe(after.calls);
  });
});
