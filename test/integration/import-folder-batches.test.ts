// A source loaded on the importer's thread (a folder tree) is written in batches of at most maxBatchLoadedHere skills:
// each loaded skill is held from its read to its batch's commit, and V8 grows its heap with what it holds that long.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxBatchLoadedHere } from '../../src/core/skills/import-batches';
import { importSource } from '../../src/core/skills/importer';
import { latestImportReport } from '../../src/core/store/import-reports-repo';
import { skillMd, tempLibrary, writeSkill, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => (lib = tempLibrary()));
afterEach(() => lib.close());

describe('folder import batches', () => {
  it('writes a 300-skill tree in batches of at most maxBatchLoadedHere, every skill reported as added', async () => {
    const root = path.join(lib.dir, 'tree');
    const names = Array.from({ length: 300 }, (_, i) => `batch-skill-${String(i).padStart(3, '0')}`);
    for (const name of names) writeSkill(root, `g${name.slice(-1)}/${name}`, skillMd(name, `Does ${name}.`));
    // The importer reports each skill of a batch right after its commit, in one go: one burst per batch.
    const bursts: number[] = [];
    let open = false;
    const job = {
      signal: new AbortController().signal,
      report: ({ done }: { done: number }) => {
        if (done === 0) return;
        if (!open) {
          open = true;
          bursts.push(0);
          queueMicrotask(() => (open = false));
        }
        bursts[bursts.length - 1]! += 1;
      },
    };
    const report = latestImportReport(lib.db, (await importSource(lib.deps, { path: root }, job)).sourceId)!;
    expect(bursts.reduce((a, b) => a + b, 0)).toBe(300);
    expect(Math.max(...bursts)).toBeLessThanOrEqual(maxBatchLoadedHere);
    expect(report.added.map((r) => r.name).sort()).toEqual(names);
    expect(report.added.every((r) => r.relPath.endsWith(r.name))).toBe(true);
  });
});
