// A Git source imports only what its repository holds, and never keeps a password from its URL: a sub-folder that is
// a link onto this disk is refused (as plain import refuses links that escape the source), links below it are refused
// by the folder walk, and a URL with a user name or password is refused before anything is stored or printed. Real
// Git over a loopback `git http-backend`, through createCore and the CLI.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { ImportReport } from '../../src/shared/api';
import { startGitServer, type GitServer } from '../fixtures/git-server';
import { makeSkillRepo, skillMd } from '../fixtures/git-skills';
import { runCli } from '../fixtures/run-cli';

let root: string;
let core: Core;
let server: GitServer;
/** A folder of this disk that no repository holds, with a skill and a private reference in it. */
let privateDir: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sc-git-trust-'));
  privateDir = path.join(root, 'private');
  mkdirSync(path.join(privateDir, 'secret-skill', 'references'), { recursive: true });
  writeFileSync(path.join(privateDir, 'secret-skill', 'SKILL.md'), skillMd('secret-skill', 'Private notes.'));
  writeFileSync(path.join(privateDir, 'secret-skill', 'references', 'keys.md'), 'PRIVATE KEY MATERIAL\n');

  const repo = makeSkillRepo(root, 'links', {
    'pack/alpha/SKILL.md': skillMd('alpha', 'Does alpha things.'),
  });
  // A sub-folder that is a link onto the disk, one that is a link to a folder beside the repository's own, and a link
  // below a real sub-folder that leads out.
  symlinkSync(privateDir, path.join(repo.work, 'skills'), 'dir');
  symlinkSync(path.join(privateDir, 'secret-skill'), path.join(repo.work, 'pack', 'leak'), 'dir');
  symlinkSync('pack', path.join(repo.work, 'inside'), 'dir');
  repo.push('links');
  server = await startGitServer(root);
  core = createCore({ dataDir: path.join(root, 'data'), resourcesDir: path.resolve('resources') });
});

afterAll(async () => {
  await core?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function addGit(req: Parameters<Core['sources.addGit']>[0]) {
  const job = await core['sources.addGit'](req);
  return core['jobs.wait']({ id: job.id });
}

describe('a Git source with links', () => {
  it('refuses a sub-folder that is a link out of the repository, and keeps nothing', async () => {
    const job = await addGit({ url: `${server.baseUrl}links.git`, subdir: 'skills' });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(
      /The sub-folder "skills" is a link that leads out of the repository .*imports only what the repository itself holds/,
    );
    expect(await core['library.sources']({})).toEqual([]);
    expect((await core['library.list']({})).total).toBe(0);
  });

  it('imports the real sub-folder without a link below it that leads out', async () => {
    const job = await addGit({ url: `${server.baseUrl}links.git`, subdir: 'pack' });
    expect(job.status).toBe('done');
    const report = job.result as ImportReport;
    expect(report.added.map((s) => s.name)).toEqual(['alpha']);
    expect(JSON.stringify(report)).toContain('symlink-escapes-source');
    expect(JSON.stringify(await core['library.list']({}))).not.toContain('secret-skill');
  });

  it('imports a sub-folder that is a link inside the repository', async () => {
    const job = await addGit({ url: `${server.baseUrl}links.git`, subdir: 'inside' });
    expect(job.status, job.error?.message).toBe('done');
  });
});

describe('a Git URL with credentials', () => {
  it('is refused before anything is stored, and the password is never printed', async () => {
    const jobsBefore = JSON.stringify(await core['jobs.list']({}));
    const sourcesBefore = await core['library.sources']({});
    for (const url of [
      `http://alice:hunter2-secret@127.0.0.1:1/links.git`,
      `https://hunter2-secret@example.invalid/owner/repo.git`,
    ]) {
      const error = await core['sources.addGit']({ url }).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      expect(error?.message).toMatch(/carries a user name or password.*--token-stdin/);
      expect(error?.message).not.toContain('hunter2-secret');
      expect(error?.message).not.toContain('alice');
    }
    expect(JSON.stringify(await core['jobs.list']({}))).toBe(jobsBefore);
    expect(await core['library.sources']({})).toEqual(sourcesBefore);
  });

  it('is refused by the CLI with exit 1 and no password on its output', async () => {
    const run = await runCli(path.join(root, 'cli-data'), [
      'source',
      'add-git',
      'http://alice:hunter2-secret@127.0.0.1:1/links.git',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/http:\/\/\*\*\*@127\.0\.0\.1:1\/links\.git carries a user name or password/);
    expect(run.stdout + run.stderr).not.toContain('hunter2-secret');
  });
});
