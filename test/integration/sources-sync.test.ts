// Sources that stay in sync, through createCore: a Git source served by a local `git http-backend` (isomorphic-git
// speaks HTTP only), update checks with diffs, partial apply that keeps reviewed states, folder watch, delete + undo.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore, resumeFolderWatches } from '../../src/core';
import type { DiffHunkLine, ImportReport } from '../../src/shared/api';
import { startGitServer, type GitServer } from '../fixtures/git-server';
import { makeSkillRepo, skillMd, type SkillRepo } from '../fixtures/git-skills';

let root: string;
let core: Core;
let server: GitServer;
let repo: SkillRepo;
const token = 'tok-123';

const changedLines = (diff: DiffHunkLine[]) =>
  diff
    .filter((l) => l.op === 'add' || l.op === 'del')
    .map((l) => `${l.op === 'add' ? '+' : '-'}${'text' in l ? l.text : ''}`);

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sc-sync-'));
  repo = makeSkillRepo(root, 'skills', {
    'README.md': 'not a skill\n',
    'pack/alpha/SKILL.md': skillMd('alpha', 'Does alpha things.', 'Step one.\nStep two.\n'),
    'pack/beta/SKILL.md': skillMd('beta', 'Does beta things.'),
  });
  makeSkillRepo(root, 'empty', { 'README.md': 'nothing here\n' });
  server = await startGitServer(root, { token });
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

describe('a Git source', () => {
  let sourceId: number;

  it('refuses a private repository without a token, and keeps no source', async () => {
    const job = await addGit({ url: `${server.baseUrl}skills.git`, subdir: 'pack' });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(/needs a token/);
    expect(await core['library.sources']({})).toEqual([]);
  });

  it('says "No SKILL.md found" for a repository without skills and keeps no junk source', async () => {
    const job = await addGit({ url: `${server.baseUrl}empty.git`, token });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(/No SKILL.md found/);
    expect(await core['library.sources']({})).toEqual([]);
    expect((await core['sources.sync']({})).length).toBe(0);
  });

  it('imports a branch sub-folder with a token through the folder import', async () => {
    const job = await addGit({ url: `${server.baseUrl}skills.git`, ref: 'main', subdir: 'pack', token });
    expect(job.status).toBe('done');
    const report = job.result as ImportReport;
    expect(report.added.map((s) => s.name).sort()).toEqual(['alpha', 'beta']);
    sourceId = report.sourceId;
    const [sync] = await core['sources.sync']({});
    expect(sync).toMatchObject({
      sourceId,
      git: { url: `${server.baseUrl}skills.git`, ref: 'main', subdir: 'pack', usesToken: true },
    });
    expect(sync!.git!.commit).toMatch(/^[0-9a-f]{40}$/);
    // The token was sent, and it is not in the job's stored parameters.
    expect(server.requests.some((r) => r.authorized)).toBe(true);
    expect(JSON.stringify(await core['jobs.get']({ id: job.id }))).not.toContain(token);
  });

  it('checks upstream: added, changed (with a diff) and removed, writing nothing', async () => {
    const alpha = await core['library.get']({ name: 'alpha' });
    await core['states.edit']({ skillId: alpha.id, precondition: 'A is ready.', completion: 'A is done.' });
    repo.write({
      'pack/alpha/SKILL.md': skillMd('alpha', 'Does alpha things.', 'Step one.\nStep two, faster.\n'),
      'pack/beta': null,
      'pack/gamma/SKILL.md': skillMd('gamma', 'Does gamma things.'),
    });
    repo.push('second');
    const check = await core['sources.check']({ sourceId });
    expect(check.added.map((i) => i.name)).toEqual(['gamma']);
    expect(check.removed.map((i) => i.name)).toEqual(['beta']);
    expect(check.changed).toHaveLength(1);
    expect(check.changed[0]).toMatchObject({ name: 'alpha', skillId: alpha.id, reviewStatus: 'edited' });
    expect(changedLines(check.changed[0]!.diff)).toEqual(['-Step two.', '+Step two, faster.']);
    expect((await core['library.list']({})).total).toBe(2);
    expect((await core['library.get']({ id: alpha.id })).body).toBe('Step one.\nStep two.\n');
  });

  it('applies some changes: the edited skill keeps its states, marked "changed since" with the diff', async () => {
    const alpha = await core['library.get']({ name: 'alpha' });
    const result = await core['sources.apply']({ sourceId, relPaths: ['alpha', 'gamma'] });
    expect(result.updated.map((s) => s.name)).toEqual(['alpha']);
    expect(result.added.map((s) => s.name)).toEqual(['gamma']);
    expect(result.kept).toEqual([{ skillId: alpha.id, name: 'alpha', status: 'edited' }]);
    expect(result.remaining).toBe(1);
    expect((await core['library.get']({ id: alpha.id })).body).toContain('faster');
    const states = await core['states.get']({ skillId: alpha.id });
    expect(states).toMatchObject({ status: 'edited', precondition: 'A is ready.', completion: 'A is done.' });
    const change = await core['sources.skillChange']({ skillId: alpha.id });
    expect(changedLines(change!.diff)).toEqual(['-Step two.', '+Step two, faster.']);
    // beta is still in the library until its removal is applied.
    expect((await core['library.get']({ name: 'beta' })).name).toBe('beta');
    const again = await core['sources.check']({ sourceId });
    expect([again.added.length, again.changed.length, again.removed.length]).toEqual([0, 0, 1]);
    await core['sources.dismissChange']({ skillId: alpha.id });
    expect(await core['sources.skillChange']({ skillId: alpha.id })).toBeNull();
  });

  it('applies the removal through the trash, so undo brings the skill back', async () => {
    const beta = await core['library.get']({ name: 'beta' });
    await core['states.edit']({ skillId: beta.id, precondition: 'B is ready.', completion: 'B is done.' });
    const result = await core['sources.apply']({ sourceId });
    expect(result.removed.map((s) => s.name)).toEqual(['beta']);
    // The report names it and says a curator had edited its states.
    const report = (await core['library.importReport']({ sourceId }))!;
    expect(report.removed).toEqual([{ name: 'beta', relPath: 'beta', reviewStatus: 'edited' }]);
    expect([report.removedReviewed, report.removedToTrash]).toEqual([1, true]);
    await expect(core['library.get']({ name: 'beta' })).rejects.toThrow();
    const undone = await core['sources.undoDelete']({});
    expect(undone.restoredSkillIds).toHaveLength(1);
    expect((await core['library.get']({ name: 'beta' })).name).toBe('beta');
  });

  it('imports a tag', async () => {
    repo.push('third', 'v1');
    const job = await addGit({
      url: `${server.baseUrl}skills.git`,
      ref: 'v1',
      subdir: 'pack/gamma',
      label: 'gamma at v1',
      token,
    });
    expect(job.status).toBe('done');
    expect((job.result as ImportReport).duplicates?.map((d) => d.name)).toEqual(['gamma']);
  });
});

describe('delete with undo', () => {
  it('says what goes, deletes a source with its skills and restores them with their states', async () => {
    const folder = path.join(root, 'local');
    for (const name of ['one', 'two']) {
      mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(path.join(folder, name, 'SKILL.md'), skillMd(name, `Does ${name}.`));
    }
    const job = await core['jobs.wait']({
      id: (await core['library.import']({ path: folder, label: 'local' })).id,
    });
    const sourceId = (job.result as ImportReport).sourceId;
    const one = await core['library.get']({ name: 'one' });
    await core['states.edit']({ skillId: one.id, precondition: null, completion: 'One is done.' });
    await core['states.verify']({ skillId: one.id });
    const preview = await core['sources.deletePreview']({ sourceId });
    expect(preview).toMatchObject({ skills: 2, reviewed: 1, sourceLabel: 'local' });
    expect(preview.names.sort()).toEqual(['one', 'two']);
    const deleted = await core['sources.delete']({ sourceId });
    expect(deleted).toMatchObject({ kind: 'source', label: 'source local', skillCount: 2 });
    expect((await core['library.sources']({})).some((s) => s.id === sourceId)).toBe(false);
    expect((await core['library.search']({ query: 'one' })).hits.some((h) => h.skill.name === 'one')).toBe(
      false,
    );
    const undone = await core['sources.undoDelete']({});
    expect(undone.restoredSkillIds.sort()).toEqual([one.id, one.id + 1].sort());
    expect(await core['states.get']({ skillId: one.id })).toMatchObject({
      status: 'verified',
      completion: 'One is done.',
    });
    expect((await core['states.history']({ skillId: one.id })).length).toBeGreaterThanOrEqual(2);
    expect((await core['library.search']({ query: 'one' })).hits.some((h) => h.skill.name === 'one')).toBe(
      true,
    );
    await expect(core['sources.undoDelete']({})).rejects.toThrow(/Nothing to undo/);
  });

  it('deletes one skill and undoes it', async () => {
    const two = await core['library.get']({ name: 'two' });
    const deleted = await core['sources.delete']({ skillIds: [two.id] });
    expect(deleted).toMatchObject({ kind: 'skills', label: 'two', skillCount: 1 });
    expect((await core['sources.lastDeleted']({}))?.id).toBe(deleted.id);
    await core['sources.undoDelete']({});
    expect((await core['library.get']({ id: two.id })).name).toBe('two');
  });
});

describe('a watched folder', () => {
  it('shows a change as a pending update and never applies it by itself', async () => {
    const folder = path.join(root, 'watched');
    mkdirSync(path.join(folder, 'w1'), { recursive: true });
    writeFileSync(path.join(folder, 'w1', 'SKILL.md'), skillMd('w1', 'Watched one.'));
    const job = await core['jobs.wait']({ id: (await core['library.import']({ path: folder })).id });
    const sourceId = (job.result as ImportReport).sourceId;
    const watched = await core['sources.watch']({ sourceId, watch: true });
    expect(watched).toMatchObject({ watched: true, pending: null });
    await new Promise((r) => setTimeout(r, 300)); // chokidar's initial scan
    writeFileSync(path.join(folder, 'w1', 'SKILL.md'), skillMd('w1', 'Watched one, changed.'));
    let pending = null;
    for (let i = 0; i < 100 && !pending; i++) {
      await new Promise((r) => setTimeout(r, 100));
      pending = (await core['sources.sync']({})).find((s) => s.sourceId === sourceId)?.pending ?? null;
    }
    expect(pending).toMatchObject({ added: 0, changed: 1, removed: 0 });
    expect((await core['library.get']({ name: 'w1' })).description).toBe('Watched one.');
    await core['sources.apply']({ sourceId });
    expect((await core['library.get']({ name: 'w1' })).description).toBe('Watched one, changed.');
    expect((await core['sources.sync']({})).find((s) => s.sourceId === sourceId)?.pending).toBeNull();
  });
});

describe('a watch after a restart', () => {
  it('resumes when a long-running host asks (the app, serve)', async () => {
    const folder = path.join(root, 'watched-again');
    mkdirSync(path.join(folder, 'r1'), { recursive: true });
    writeFileSync(path.join(folder, 'r1', 'SKILL.md'), skillMd('r1', 'Resumed one.'));
    const dataDir = path.join(root, 'data-restart');
    const first = createCore({ dataDir, resourcesDir: path.resolve('resources') });
    const job = await first['jobs.wait']({ id: (await first['library.import']({ path: folder })).id });
    const sourceId = (job.result as ImportReport).sourceId;
    await first['sources.watch']({ sourceId, watch: true });
    await first.close();
    const pendingIn = async (c: Core) =>
      (await c['sources.sync']({})).find((s) => s.sourceId === sourceId)?.pending;

    const command = createCore({ dataDir, resourcesDir: path.resolve('resources') });
    const host = createCore({ dataDir, resourcesDir: path.resolve('resources') });
    try {
      resumeFolderWatches(host.context);
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(path.join(folder, 'r1', 'SKILL.md'), skillMd('r1', 'Resumed one, changed.'));
      await expect.poll(() => pendingIn(host), { timeout: 10_000 }).toMatchObject({ changed: 1 });
      expect((await command['sources.sync']({})).find((s) => s.sourceId === sourceId)?.watched).toBe(true);
    } finally {
      await command.close();
      await host.close();
    }
  });
});

describe('a name conflict', () => {
  it('gives both sides and a line diff', async () => {
    const folder = path.join(root, 'rival');
    mkdirSync(path.join(folder, 'one'), { recursive: true });
    writeFileSync(path.join(folder, 'one', 'SKILL.md'), skillMd('one', 'Does one differently.'));
    await core['jobs.wait']({ id: (await core['library.import']({ path: folder, label: 'rival' })).id });
    const [conflict] = await core['library.conflicts']({});
    const diff = await core['sources.conflictDiff']({ conflictId: conflict!.id });
    expect(diff.existing).toMatchObject({ sourceLabel: 'local', relPath: 'one' });
    expect(diff.incoming).toMatchObject({
      sourceLabel: 'rival',
      relPath: 'one',
      description: 'Does one differently.',
    });
    expect(diff.diff.filter((l) => l.op !== 'same').map((l) => l.text)).toEqual([
      'description: Does one.',
      'description: Does one differently.',
    ]);
  });
});

describe('what a failed or empty import leaves', () => {
  it('an empty folder says "No SKILL.md found" and leaves no source', async () => {
    const empty = path.join(root, 'empty-folder');
    mkdirSync(path.join(empty, 'docs'), { recursive: true });
    writeFileSync(path.join(empty, 'docs', 'README.md'), 'no skills here\n');
    const before = (await core['library.sources']({})).length;
    const job = await core['jobs.wait']({ id: (await core['library.import']({ path: empty })).id });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(/No SKILL.md found in .*empty-folder/);
    expect((await core['library.sources']({})).length).toBe(before);
  });

  it('a folder whose every skill is rejected reports why, and leaves no empty source', async () => {
    const bad = path.join(root, 'all-bad');
    mkdirSync(path.join(bad, 'broken'), { recursive: true });
    writeFileSync(path.join(bad, 'broken', 'SKILL.md'), 'no front matter at all\n');
    const before = (await core['library.sources']({})).length;
    const job = await core['jobs.wait']({ id: (await core['library.import']({ path: bad })).id });
    expect(job.status).toBe('done');
    expect((job.result as ImportReport).rejected).toHaveLength(1);
    expect((await core['library.sources']({})).length).toBe(before);
  });

  it('a source that already held skills stays when it is re-imported empty (its skills are removed)', async () => {
    const folder = path.join(root, 'shrinking');
    mkdirSync(path.join(folder, 'solo'), { recursive: true });
    writeFileSync(path.join(folder, 'solo', 'SKILL.md'), skillMd('solo', 'Alone.'));
    const first = await core['jobs.wait']({ id: (await core['library.import']({ path: folder })).id });
    rmSync(path.join(folder, 'solo'), { recursive: true });
    const again = await core['jobs.wait']({ id: (await core['library.import']({ path: folder })).id });
    expect(again.status).toBe('done');
    expect((again.result as ImportReport).removed.map((s) => s.name)).toEqual(['solo']);
    expect(
      (await core['library.sources']({})).some((s) => s.id === (first.result as ImportReport).sourceId),
    ).toBe(true);
  });
});
