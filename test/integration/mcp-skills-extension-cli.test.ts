// The MCP Skills extension from the real CLI, over stdio and over Streamable HTTP, on the sample library plus the
// 633 zjunlp skills (../shared/data), checked by the extension's reference client (@olaservo/ext-skills): every listed
// skill's SKILL.md and a supporting file verified by digest and size; under the default rule an unverified zjunlp
// skill is neither listed nor gettable nor readable, and under --allow all the skills the audit refuses are withheld.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  getSkill,
  listSkills,
  readSkill,
  readSkillResource,
  type SkillEntry,
} from '@olaservo/ext-skills/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { gatedSkillIds } from '../../src/core/audit/audit-gate';
import { requireOrSkip } from '../fixtures/require-or-skip';
import { zjunlpDir } from '../fixtures/skills/library-fixture';
import { cliArgs, httpMcpClient, mcpLibrary, repoRoot, type McpLibrary } from './mcp-fixture';

const zjunlpSkills = path.join(zjunlpDir, 'skills');
let lib: McpLibrary;
let zjunlpNames: string[];
/** The zjunlp skills the audit gate refuses (critical findings): withheld under every rule. */
let refusedNames: string[];
const closers: (() => Promise<void>)[] = [];

/** Reads SKILL.md and one supporting file (when there is one) of each entry, as a host loads them: verified. */
async function verifyAll(client: Client, entries: SkillEntry[]): Promise<number> {
  let files = 0;
  for (const entry of entries) {
    await readSkill(client, entry);
    const other = (entry.resources as { uri: string }[]).find((r) => !r.uri.endsWith('/SKILL.md'));
    if (other) await readSkillResource(client, entry, other.uri);
    files += other ? 2 : 1;
  }
  return files;
}

async function overStdio(...args: string[]): Promise<Client> {
  const client = new Client({ name: 'sep-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(lib.dataDir, 'mcp', ...args),
      cwd: repoRoot,
      stderr: 'pipe',
    }),
  );
  closers.push(() => client.close());
  return client;
}

async function overHttp(...args: string[]): Promise<Client> {
  const { client, close } = await httpMcpClient(
    lib.dataDir,
    { name: 'sep-http-test', version: '1.0.0' },
    ...args,
  );
  closers.unshift(close);
  return client;
}

describe.runIf(requireOrSkip(existsSync(zjunlpSkills), `the zjunlp skills are not at ${zjunlpSkills}`))(
  'the Skills extension from the CLI, on the sample library and the zjunlp skills',
  () => {
    beforeAll(async () => {
      lib = await mcpLibrary();
      const core = createCore({ dataDir: lib.dataDir, resourcesDir: path.join(repoRoot, 'resources') });
      try {
        const job = await core['library.import']({ path: zjunlpSkills, label: 'zjunlp' });
        expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
        const source = (await core['library.sources']({})).find((s) => s.label === 'zjunlp')!;
        zjunlpNames = [];
        for (let offset = 0; ; offset += 500) {
          const page = await core['library.list']({ sourceId: source.id, limit: 500, offset });
          zjunlpNames.push(...page.items.map((s) => s.name));
          if (page.items.length < 500) break;
        }
        const names = core.context.db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
        refusedNames = gatedSkillIds(core.context).map((id) => names.get(id) as string);
      } finally {
        await core.close();
      }
      expect(zjunlpNames.length).toBeGreaterThan(500);
    }, 180_000);

    afterAll(async () => {
      for (const close of closers) await close();
      lib?.close();
    });

    it('over stdio, serves the verified sample skills, every file verified, and no unverified zjunlp skill', async () => {
      const client = await overStdio('--preset', 'offline');
      const entries = await listSkills(client);
      const names = entries.map((e) => e.frontmatter.name as string);
      expect(names).toContain('household-make-coffee');
      expect(names.filter((n) => zjunlpNames.includes(n))).toEqual([]);
      expect(await verifyAll(client, entries)).toBeGreaterThan(entries.length);
      const outside = `skill://${zjunlpNames[0]}/SKILL.md`;
      expect(((await getSkill(client, outside).catch((e: unknown) => e)) as { code: number }).code).toBe(
        -32602,
      );
      expect(
        ((await client.readResource({ uri: outside }).catch((e: unknown) => e)) as { code: number }).code,
      ).toBe(-32602);
    }, 120_000);

    it('over HTTP with --allow all, lists every zjunlp skill the audit passes across pages and verifies each one', async () => {
      const client = await overHttp('--allow', 'all', '--preset', 'offline');
      const entries = await listSkills(client);
      const listed = new Set(entries.map((e) => e.frontmatter.name as string));
      expect(refusedNames.length).toBeGreaterThan(0);
      expect(zjunlpNames.filter((n) => !listed.has(n)).sort()).toEqual([...refusedNames].sort());
      expect(entries.length).toBeGreaterThan(100);
      await verifyAll(client, entries);
      const one = entries.find((e) => e.frontmatter.name === zjunlpNames[0])!;
      expect(await getSkill(client, one.uri)).toEqual(one);
    }, 240_000);
  },
);
