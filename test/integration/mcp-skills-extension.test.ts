// A standard agent host finds the curated skills through the MCP Skills extension (SEP-2640): the capability, a paged
// skills/list of complete manifests, skills/get, resources/directory/read, and resources/read of every listed file,
// each checked by the extension's own reference client (@olaservo/ext-skills: digests, sizes, front matter). The rule
// holds for all of it as for the tools. The real server over the SDK's in-memory transport, on a real library file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  getSkill,
  listSkills,
  readDirectory,
  readSkill,
  readSkillResource,
  type SkillEntry,
} from '@olaservo/ext-skills/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { AllowRule } from '../../src/mcp/allowed-skills';
import { createMcpContext } from '../../src/mcp/mcp-context';
import { libraryProfiles } from '../../src/mcp/profile-source';
import { createCuratorMcpServer } from '../../src/mcp/server';
import type { JobInfo } from '../../src/shared/jobs';

let dir: string;
let core: Core;
const clients: Client[] = [];

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
}

const md = (name: string, description: string, extra = '', body = '# Steps\n\nDo it.\n'): string =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;

async function imported(job: Promise<JobInfo>): Promise<void> {
  expect((await core['jobs.wait']({ id: (await job).id })).status).toBe('done');
}

async function verify(name: string, sourceLabel?: string): Promise<void> {
  const all = (await core['library.list']({ name })).items;
  const sources = await core['library.sources']({});
  for (const s of all) {
    if (sourceLabel && sources.find((x) => x.id === s.sourceId)?.label !== sourceLabel) continue;
    await core['states.edit']({ skillId: s.id, precondition: 'Ready', completion: 'Done' });
    await core['states.verify']({ skillId: s.id });
  }
}

async function connect(rule: AllowRule): Promise<Client> {
  const mcp = await createMcpContext({
    core,
    rule,
    profiles: libraryProfiles(core.context),
    preset: 'offline',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCuratorMcpServer(mcp).connect(serverSide);
  const client = new Client({ name: 'skills-extension-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

const png = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0xfe, 0x00, 0x80,
]);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-mcp-sep-'));
  write(path.join(dir, 'kitchen'), {
    'heat-mug/SKILL.md': md(
      'heat-mug',
      'Heat a mug of water in the microwave.',
      'license: MIT\nallowed-tools: Bash(microwave:*) Read\nmetadata:\n  version: "1.2"\n  tags: [kitchen, heat]\n',
      '# Heat\n\nSee references/guide.md, then run scripts/heat.sh.\n',
    ),
    'heat-mug/references/guide.md': 'One minute on full power.\n',
    'heat-mug/references/deep/watts.md': 'Watts by model.\n',
    'heat-mug/scripts/heat.sh': '#!/bin/sh\necho heating\n',
    'heat-mug/assets/mug.png': png,
    'cool-mug/SKILL.md': md('cool-mug', 'Cool a mug in the fridge.'),
    'draft-skill/SKILL.md': md('draft-skill', 'A draft nobody verified.'),
    'Odd_Name/SKILL.md': md('Odd_Name', 'A name outside the naming rule.'),
  });
  write(path.join(dir, 'fork'), { 'cool-mug/SKILL.md': md('cool-mug', 'Cool a mug in the fridge, faster.') });
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  await core['settings.update']({
    patch: { import: { nameFormat: 'warning', nameFolderMismatch: 'warning' } },
  });
  await imported(core['library.import']({ path: path.join(dir, 'kitchen'), label: 'Kitchen' }));
  await imported(core['library.import']({ path: path.join(dir, 'fork'), label: 'My Fork' }));
  for (const conflict of await core['library.conflicts']({}))
    await core['library.resolveConflict']({ id: conflict.id, resolution: 'keep-both' });
  for (const name of ['heat-mug', 'cool-mug', 'Odd_Name']) await verify(name);
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the MCP Skills extension (SEP-2640)', () => {
  let client: Client;
  let entries: SkillEntry[];
  beforeAll(async () => {
    client = await connect({ kind: 'verified' });
    entries = await listSkills(client);
  });

  it('is declared with directoryRead, beside the resources capability', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.extensions?.['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    expect(capabilities?.resources).toBeDefined();
  });

  it('lists the served skills, each URI ending in its name, twins under distinct prefixes', async () => {
    expect(entries.map((e) => e.uri).sort()).toEqual(expect.arrayContaining(['skill://heat-mug/SKILL.md']));
    const cool = entries.filter((e) => e.frontmatter.name === 'cool-mug').map((e) => e.uri);
    expect(cool).toHaveLength(2);
    expect(cool.every((u) => /^skill:\/\/(kitchen|my-fork)\.\d+\/cool-mug\/SKILL\.md$/.test(u))).toBe(true);
    expect(new Set(cool.map((u) => u.split('/')[2])).size).toBe(2);
    // Not verified, or a name no URI can end in: not an entry (Odd_Name stays readable with read_skill).
    expect(entries.map((e) => e.frontmatter.name).sort()).toEqual(['cool-mug', 'cool-mug', 'heat-mug']);
    const raw = (await client.request(
      { method: 'skills/list', params: {} },
      (await import('@olaservo/ext-skills/client')).SkillsListResultSchema,
    )) as Record<string, unknown>;
    expect(raw).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'private' });
  });

  it('gives the front matter verbatim and a complete manifest that every read verifies against', async () => {
    const heat = entries.find((e) => e.uri === 'skill://heat-mug/SKILL.md')!;
    expect(heat.frontmatter).toEqual({
      name: 'heat-mug',
      description: 'Heat a mug of water in the microwave.',
      license: 'MIT',
      'allowed-tools': 'Bash(microwave:*) Read',
      metadata: { version: '1.2', tags: ['kitchen', 'heat'] },
    });
    const resources = heat.resources as { uri: string; digest: string; size: number }[];
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'skill://heat-mug/SKILL.md',
      'skill://heat-mug/assets/mug.png',
      'skill://heat-mug/references/deep/watts.md',
      'skill://heat-mug/references/guide.md',
      'skill://heat-mug/scripts/heat.sh',
    ]);
    expect(resources.every((r) => /^sha256:[0-9a-f]{64}$/.test(r.digest))).toBe(true);
    expect(await readSkill(client, heat)).toContain('See references/guide.md');
    for (const r of resources.slice(1)) await readSkillResource(client, heat, r.uri);
    for (const entry of entries) await readSkill(client, entry);
  });

  it('gets an entry by URI as listed, and answers -32602 alike for a skill it does not serve and one that does not exist', async () => {
    const heat = entries.find((e) => e.uri === 'skill://heat-mug/SKILL.md')!;
    expect(await getSkill(client, heat.uri)).toEqual(heat);
    const twin = entries.find((e) => e.frontmatter.name === 'cool-mug')!;
    expect(await getSkill(client, twin.uri)).toEqual(twin);
    const refusal = async (uri: string) => {
      const error = (await getSkill(client, uri).catch((e: unknown) => e)) as {
        code?: number;
        message?: string;
      };
      expect(error.message).toMatch(/./);
      expect(error.code).toBe(-32602);
      return error.message!.replace(uri, 'URI');
    };
    expect(await refusal('skill://draft-skill/SKILL.md')).toBe(
      await refusal('skill://no-such-skill/SKILL.md'),
    );
    expect(await refusal('skill://cool-mug/SKILL.md')).toMatch(
      /2 served skills are named "cool-mug"; each has its own URI: skill:\/\/.*cool-mug\/SKILL\.md, skill:\/\//,
    );
    expect(await refusal('skill://heat-mug/references/guide.md')).toMatch(/SKILL\.md/);
    expect(await refusal('skill://Odd_Name/SKILL.md')).toMatch(/naming rule.*read_skill/);
  });

  it('reads the directories of a skill, one level at a time, and refuses a file or an unknown folder', async () => {
    const root = await readDirectory(client, 'skill://heat-mug');
    expect(root.resources.map((r) => [r.name, r.mimeType]).sort()).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
    ]);
    const refs = await readDirectory(client, 'skill://heat-mug/references');
    expect(refs.resources.map((r) => r.uri).sort()).toEqual([
      'skill://heat-mug/references/deep',
      'skill://heat-mug/references/guide.md',
    ]);
    for (const uri of ['skill://heat-mug/SKILL.md', 'skill://heat-mug/nothing', 'skill://draft-skill']) {
      const error = (await readDirectory(client, uri).catch((e: unknown) => e)) as { code?: number };
      expect(error.code).toBe(-32602);
    }
  });

  it('answers resources/read of a skill it does not serve with -32602', async () => {
    for (const uri of ['skill://draft-skill/SKILL.md', 'skill://kitchen.999/cool-mug/SKILL.md']) {
      const error = (await client.readResource({ uri }).catch((e: unknown) => e)) as { code?: number };
      expect(error.code).toBe(-32602);
    }
  });

  it('withholds a verified skill once its source changes, from the listing, get and reads alike', async () => {
    write(path.join(dir, 'kitchen'), {
      'heat-mug/SKILL.md': md(
        'heat-mug',
        'Heat a mug of water in the microwave.',
        '',
        '# Heat\n\nChanged.\n',
      ),
    });
    const source = (await core['library.sources']({})).find((s) => s.label === 'Kitchen')!;
    await imported(core['library.import']({ path: source.uri, label: 'Kitchen' }));
    const names = (await listSkills(client)).map((e) => e.frontmatter.name);
    expect(names).not.toContain('heat-mug');
    expect(
      ((await getSkill(client, 'skill://heat-mug/SKILL.md').catch((e: unknown) => e)) as { code: number })
        .code,
    ).toBe(-32602);
    await verify('heat-mug');
    expect((await listSkills(client)).map((e) => e.frontmatter.name)).toContain('heat-mug');
  });

  it('pages a large listing with cursors, every served skill once', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 130; i++) many[`bulk-${i}/SKILL.md`] = md(`bulk-${i}`, `Bulk skill number ${i}.`);
    write(path.join(dir, 'bulk'), many);
    await imported(core['library.import']({ path: path.join(dir, 'bulk'), label: 'Bulk' }));
    const all = await connect({ kind: 'all' });
    const first = (await all.request(
      { method: 'skills/list', params: {} },
      (await import('@olaservo/ext-skills/client')).SkillsListResultSchema,
    )) as { skills: unknown[]; nextCursor?: string };
    expect(first.skills.length).toBeLessThan(130);
    expect(first.nextCursor).toEqual(expect.any(String));
    const listed = (await listSkills(all)).map((e) => e.uri);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((u) => u.includes('bulk-'))).toHaveLength(130);
    expect(listed).toContain('skill://draft-skill/SKILL.md');
  });
});
