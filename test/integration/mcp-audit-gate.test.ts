// The audit gate over MCP: a served skill with an unsuppressed finding at or above audit.gateSeverity is withheld from
// search, selection, skills/list and every read, the curator hears at start which and why, a suppression with a
// reason serves it again, and a skill whose audit is missing is audited before its first read. The real server over
// the SDK's in-memory transport, on a real library file.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { createMcpContext } from '../../src/mcp/mcp-context';
import { libraryProfiles } from '../../src/mcp/profile-source';
import { createCuratorMcpServer } from '../../src/mcp/server';
import { skillMd, writeSkill } from '../fixtures/skills/library-fixture';
import { toolError, toolJson } from './mcp-fixture';

const bad = 'aws-cost-report';
let dir: string;
let core: Core;
let client: Client;
const logged: string[] = [];

const read = async (name: string): Promise<unknown> =>
  client.callTool({ name: 'read_skill', arguments: { name } });
const searched = async (query: string): Promise<string[]> =>
  (
    toolJson(await client.callTool({ name: 'search_skills', arguments: { query } })).hits as {
      name: string;
    }[]
  ).map((h) => h.name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-mcp-audit-'));
  const skills = path.join(dir, 'skills');
  cpSync(path.resolve('test/fixtures/audit-corpus/malicious', bad), path.join(skills, bad), {
    recursive: true,
  });
  writeSkill(
    skills,
    'aws-bill-summary',
    skillMd('aws-bill-summary', 'Summarise an AWS cost report by service.'),
  );
  writeSkill(
    skills,
    'late-comer',
    skillMd('late-comer', 'Summarise the cost report, arrived before audits.'),
  );
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  const job = await core['library.import']({ path: skills });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  // A skill imported before the audit existed: no audit stored for it.
  const lateId = (await core['library.get']({ name: 'late-comer' })).id;
  core.context.db.prepare('DELETE FROM audit_findings WHERE skill_id = ?').run(lateId);
  core.context.db.prepare('DELETE FROM audit_state WHERE skill_id = ?').run(lateId);
  const mcp = await createMcpContext({
    core,
    rule: { kind: 'all' },
    profiles: libraryProfiles(core.context),
    preset: 'offline',
    log: (line) => logged.push(line),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCuratorMcpServer(mcp).connect(serverSide);
  client = new Client({ name: 'audit-gate-test', version: '1.0.0' });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit gate over MCP', () => {
  it('withholds a critical skill from every answer, says so at start, and serves it once suppressed', async () => {
    expect(logged.join('\n')).toMatch(
      /mcp withholds 1 skill the audit refuses \(audit.gateSeverity critical\): aws-cost-report \(critical SC-EX-EXFILTRATION-CHAIN at scripts\/report.py:27\)/,
    );
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'search_skills')?.description).toMatch(
      /Skills the curator's audit refuses are withheld/,
    );

    expect(await searched('aws cost report')).not.toContain(bad);
    expect(await searched('aws cost report')).toContain('aws-bill-summary');
    expect(toolError(await read(bad))).toMatch(/^error NOT_FOUND: No skill "aws-cost-report" is served here/);
    await expect(client.readResource({ uri: `skill://${bad}/SKILL.md` })).rejects.toThrow(/No skill/);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(`skill://${bad}/SKILL.md`);
    const picked = toolJson(
      await client.callTool({
        name: 'select_skills',
        arguments: { task: 'write an aws cost report of my profiles', variant: 'no-parse', k: 5 },
      }),
    );
    expect(JSON.stringify(picked)).not.toContain(bad);

    // The curator judges the finding and suppresses it with a reason: the skill is served again at the next call.
    const id = (await core['library.get']({ name: bad })).id;
    const critical = (await core['audit.skill']({ skillId: id })).findings.find(
      (f) => f.severity === 'critical',
    )!;
    await core['audit.suppress']({
      findingId: critical.id,
      scope: 'skill-rule',
      reason: 'the test accepts this skill on purpose',
    });
    expect(toolJson(await read(bad))).toMatchObject({ name: bad });
    expect(await searched('aws cost report')).toContain(bad);
  });

  it('audits a skill whose audit is missing before it is first read', async () => {
    const lateId = (await core['library.get']({ name: 'late-comer' })).id;
    expect((await core['audit.skill']({ skillId: lateId })).auditedAt).toBeNull();
    expect(toolJson(await read('late-comer'))).toMatchObject({ name: 'late-comer' });
    expect((await core['audit.skill']({ skillId: lateId })).auditedAt).not.toBeNull();
  });
});
