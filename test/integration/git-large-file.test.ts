// A Git source whose repository holds a file larger than the import takes stops fetching at that file, before its
// bytes arrive, and says so; under the cap the same repository imports. Real Git over a loopback `git http-backend`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startGitServer, type GitServer } from '../fixtures/git-server';
import { makeSkillRepo, skillMd } from '../fixtures/git-skills';

const mib = 1024 * 1024;
let root: string;
let server: GitServer;
const cores: Core[] = [];

/** Bytes that do not compress, so the pack is as large as the file. */
function noise(bytes: number): Buffer {
  let x = 12345;
  return Buffer.from(Array.from({ length: bytes }, () => (x = (x * 48271) % 2147483647) & 255));
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sc-git-large-'));
  const repo = makeSkillRepo(root, 'large', {
    'pack/alpha/SKILL.md': skillMd('alpha', 'Does alpha things.'),
    'pack/video/SKILL.md': skillMd('video', 'Plays a demo video.'),
  });
  mkdirSync(path.join(repo.work, 'pack/video/assets'));
  writeFileSync(path.join(repo.work, 'pack/video/assets/demo.bin'), noise(6 * mib));
  repo.push('a large asset');
  server = await startGitServer(root);
}, 60_000);

afterAll(async () => {
  for (const core of cores) await core.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function coreWith(importSettings: Record<string, number>): Promise<Core> {
  const core = createCore({
    dataDir: mkdtempSync(path.join(root, 'data-')),
    resourcesDir: path.resolve('resources'),
  });
  cores.push(core);
  await core['settings.update']({ patch: { import: importSettings } });
  return core;
}

async function addGit(core: Core) {
  const job = await core['sources.addGit']({ url: `${server.baseUrl}large.git`, subdir: 'pack' });
  return core['jobs.wait']({ id: job.id });
}

describe('a Git repository with a file over the import cap', () => {
  it('stops the fetch at that file, before its bytes arrive, says why, and keeps nothing', async () => {
    const core = await coreWith({ packageFileMaxBytes: 2 * mib });
    const job = await addGit(core);
    expect(job.status).toBe('failed');
    const message = job.error?.message ?? '';
    expect(message).toMatch(
      /holds a file of 6\.0 MiB, over the 2\.0 MiB Skill Curator imports per file; the fetch stopped after (\d+\.\d) MiB and nothing was imported\. .*import\.packageFileMaxBytes/,
    );
    expect(Number(/stopped after (\d+\.\d) MiB/.exec(message)![1])).toBeLessThan(1);
    expect(await core['library.sources']({})).toEqual([]);
  }, 60_000);

  it('stops a download over its cap', async () => {
    const core = await coreWith({ gitDownloadMaxBytes: 3 * mib });
    const job = await addGit(core);
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(
      /download is over 3\.0 MiB; the fetch stopped .*import\.gitDownloadMaxBytes/,
    );
  }, 60_000);

  it('imports the repository when its files are under the caps', async () => {
    const core = await coreWith({ packageFileMaxBytes: 8 * mib });
    const job = await addGit(core);
    expect(job.error?.message ?? 'no error').toBe('no error');
    expect(job.status).toBe('done');
    const names = (await core['library.list']({})).items.map((s) => s.name).sort();
    expect(names).toEqual(['alpha', 'video']);
  }, 60_000);
});
