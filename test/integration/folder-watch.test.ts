// Folder watches load chokidar with the first watch: a watch stopped before it loaded never starts, a second start of
// the same source waits for the first, and a started watch reports a change.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderWatches } from '../../src/core/sources/folder-watch';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'sc-watch-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('folder watches', () => {
  it('does not start a watch stopped while chokidar loaded', async () => {
    const settled: number[] = [];
    const watches = createFolderWatches(async (id) => void settled.push(id), 20);
    const started = watches.start(1, folder);
    expect(watches.has(1)).toBe(true);
    await watches.stop(1);
    await started;
    expect(watches.has(1)).toBe(false);
    writeFileSync(path.join(folder, 'a.md'), 'a');
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toEqual([]);
    await watches.close();
  });

  it('reports a change once the watch has started', async () => {
    const settled: number[] = [];
    const watches = createFolderWatches(async (id) => void settled.push(id), 20);
    const first = watches.start(2, folder);
    expect(watches.start(2, folder)).toBe(first);
    await first;
    try {
      await new Promise((r) => setTimeout(r, 300)); // chokidar's initial scan
      writeFileSync(path.join(folder, 'b.md'), 'b');
      await expect.poll(() => settled, { timeout: 10_000 }).toContain(2);
    } finally {
      await watches.close();
    }
    expect(watches.has(2)).toBe(false);
  });
});
