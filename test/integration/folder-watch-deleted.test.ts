// A watched folder that is deleted: the deletion is a pending update (every skill removed), the watch waits for the
// folder and watches it again when it is back; the CLI's `source watch --follow` says so on stderr and keeps running
// (never the silent exit 13 of a follow whose watcher died). And a change right after start() resolves is seen.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { createFolderWatches } from '../../src/core/sources/folder-watch';
import type { ImportReport } from '../../src/shared/api';
import { repoRoot } from '../e2e/harness';
import { skillMd, writeSkill } from '../fixtures/skills/library-fixture';

let root: string;
let folder: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sc-watch-gone-'));
  folder = path.join(root, 'skills');
  writeSkill(folder, 'one', skillMd('one', 'Does one.'));
  writeSkill(folder, 'two', skillMd('two', 'Does two.'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function importFolder(core: Core): Promise<number> {
  const job = await core['jobs.wait']({ id: (await core['library.import']({ path: folder })).id });
  return (job.result as ImportReport).sourceId;
}

const poll = { timeout: 20_000, interval: 100 };

describe('a watched folder that is deleted', () => {
  it('shows as a pending update with every skill removed, and is watched again when it comes back', async () => {
    const core = createCore({ dataDir: path.join(root, 'data'), resourcesDir: path.resolve('resources') });
    try {
      const sourceId = await importFolder(core);
      const mine = async () => (await core['sources.sync']({})).find((s) => s.sourceId === sourceId);
      const started = await core['sources.watch']({ sourceId, watch: true });
      expect(started).toMatchObject({ watched: true, pending: null, watch: { state: 'watching' } });

      rmSync(folder, { recursive: true, force: true });
      await expect
        .poll(mine, poll)
        .toMatchObject({ watched: true, watch: { state: 'waiting' }, pending: { removed: 2, changed: 0 } });
      expect((await mine())?.watch?.message).toMatch(/gone/);
      const check = await core['sources.check']({ sourceId });
      expect(check.removed.map((r) => r.name).sort()).toEqual(['one', 'two']);

      // Back, with `one` changed: the watch runs again and the pending update is what the folder holds now.
      writeSkill(folder, 'one', skillMd('one', 'Does one, changed.'));
      writeSkill(folder, 'two', skillMd('two', 'Does two.'));
      await expect.poll(mine, poll).toMatchObject({
        watched: true,
        watch: { state: 'watching' },
        pending: { added: 0, changed: 1, removed: 0 },
      });

      // A later change is seen too.
      writeSkill(folder, 'three', skillMd('three', 'Does three.'));
      await expect.poll(mine, poll).toMatchObject({ pending: { added: 1, changed: 1, removed: 0 } });
      // Nothing was applied by itself.
      expect((await core['library.get']({ name: 'one' })).description).toBe('Does one.');
    } finally {
      await core.close();
    }
  });

  it('keeps `source watch ID --follow` running and says on stderr that the folder is gone, then back', async () => {
    const dataDir = path.join(root, 'data');
    const setup = createCore({ dataDir, resourcesDir: path.resolve('resources') });
    const sourceId = await importFolder(setup);
    await setup.close();

    const child: ChildProcess = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        '--data',
        dataDir,
        'source',
        'watch',
        String(sourceId),
        '--follow',
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) =>
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        resolve();
      }),
    );
    try {
      await expect
        .poll(() => stdout, { timeout: 60_000, interval: 100 })
        .toContain(`source ${sourceId}: watched`);
      // The follow prints its first line after sources.watch resolved: the watcher is ready.
      rmSync(folder, { recursive: true, force: true });
      await expect.poll(() => stderr, poll).toMatch(/folder .* is gone; the watch waits for it to come back/);
      await expect.poll(() => stdout, poll).toContain('removed 2');
      expect(exit).toBeNull();

      writeSkill(folder, 'one', skillMd('one', 'Does one, changed.'));
      writeSkill(folder, 'two', skillMd('two', 'Does two.'));
      await expect.poll(() => stderr, poll).toContain('the folder is back; watching it again');
      await expect.poll(() => stdout, poll).toContain('added 0, changed 1, removed 0');
      // Still following, well past the point where the old watcher died.
      expect(exit).toBeNull();
    } finally {
      if (!exit) child.kill('SIGINT');
      // A follow that does not end on Ctrl+C is a failure, not a hung test.
      const late = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(late);
    }
    // Ctrl+C ends the follow normally: status 0, never 13.
    expect(exit).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe('a change right after start() resolves', () => {
  it('is always seen', async () => {
    for (let i = 0; i < 4; i++) {
      const dir = mkdtempSync(path.join(root, `race-${i}-`));
      const settled: number[] = [];
      const watches = createFolderWatches(async (id) => void settled.push(id), 20);
      try {
        await watches.start(i, dir);
        writeFileSync(path.join(dir, 'a.md'), 'a');
        await expect.poll(() => settled, { timeout: 10_000, interval: 50 }).toContain(i);
      } finally {
        await watches.close();
      }
    }
  });
});
