// Batched writes of the importer: a batch is one transaction without a savepoint per skill, so what one skill cannot
// store rolls the batch back and the batch is written again skill by skill; re-imports leave unchanged rows unwritten.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource, latestImportReport } from '../../src/core/skills/index';
import { lastDeleted, undoLastDelete } from '../../src/core/sources/trash';
import { incomingFromJson } from '../../src/core/store/conflicts-repo';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

const names = () => lib.db.prepare('SELECT name FROM skills ORDER BY name').pluck().all() as string[];
const line = (name: string, body = `Steps for ${name}.`) =>
  JSON.stringify({ name, description: `About ${name}.`, body });

describe('batched import writes', () => {
  it('a skill refused in the middle of a large batch is rejected alone; the rest of the batch is whole', async () => {
    const dump = path.join(lib.dir, 'many.jsonl');
    const all = Array.from({ length: 200 }, (_, i) => `skill-${String(i).padStart(3, '0')}`);
    writeFileSync(dump, all.map((n) => line(n)).join('\n') + '\n');
    lib.db.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON skills WHEN NEW.name = 'skill-150'
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
    const report = await importSource(lib.deps, { path: dump }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'skill-150',
        issues: [expect.objectContaining({ rule: 'store-failed' })],
      }),
    ]);
    // The library holds every line of the report, none twice (the failed batch's lines were rolled back with it);
    // the import's result lists the first 100 of each list and counts them all.
    const stored = latestImportReport(lib.db, report.sourceId)!;
    expect(stored.added.map((a) => a.name)).toEqual(all.filter((n) => n !== 'skill-150'));
    expect(report.added).toEqual(stored.added.slice(0, 100));
    expect([report.counts?.added, report.counts?.rejected, report.shownAtMost]).toEqual([199, 1, 100]);
    expect(names()).toEqual(all.filter((n) => n !== 'skill-150'));
    // Every stored skill has its text index row, and no row is left of the refused one.
    const unindexed = lib.db
      .prepare('SELECT count(*) FROM skills WHERE id NOT IN (SELECT rowid FROM skills_fts)')
      .pluck()
      .get();
    const stray = lib.db
      .prepare('SELECT count(*) FROM skills_fts WHERE rowid NOT IN (SELECT id FROM skills)')
      .pluck()
      .get();
    expect([unindexed, stray]).toEqual([0, 0]);
    expect(latestImportReport(lib.db, report.sourceId, 100)).toEqual(report);
  });

  it('a skill that cannot be removed stays and is not reported removed; the others are removed', async () => {
    const root = path.join(lib.dir, 'src');
    for (const n of ['a-kept', 'b-gone', 'c-stuck', 'd-gone']) writeSkill(root, n, skillMd(n, `About ${n}.`));
    await importSource(lib.deps, { path: root }, testJob());
    lib.db.exec(`CREATE TRIGGER refuse_delete BEFORE DELETE ON skills WHEN OLD.name = 'c-stuck'
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
    for (const n of ['b-gone', 'c-stuck', 'd-gone']) rmSync(path.join(root, n), { recursive: true });
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.removed.map((r) => r.name)).toEqual(['b-gone', 'd-gone']);
    expect(names()).toEqual(['a-kept', 'c-stuck']);
    // The two removed went to the trash as one delete.
    expect(lastDeleted(lib.db)).toMatchObject({ kind: 'skills', skillCount: 2 });
    undoLastDelete(lib.db, '2026-04-01T00:00:00.000Z');
    expect(names()).toEqual(['a-kept', 'b-gone', 'c-stuck', 'd-gone']);
  });

  it('re-importing an unchanged source does not rewrite its pending conflicts', async () => {
    const dump = path.join(lib.dir, 'first.jsonl');
    writeFileSync(dump, [line('heat-food', 'Use the microwave.'), line('cut-food')].join('\n') + '\n');
    await importSource(lib.deps, { path: dump }, testJob());
    const other = path.join(lib.dir, 'second.jsonl');
    writeFileSync(other, [line('heat-food', 'Use the stove.'), line('cut-food', 'Use a knife.')].join('\n'));
    const first = await importSource(lib.deps, { path: other }, testJob());
    expect(first.conflicts.map((c) => c.name)).toEqual(['heat-food', 'cut-food']);
    lib.db.exec(`CREATE TABLE conflict_writes (id INTEGER);
      CREATE TRIGGER log_conflict_writes AFTER UPDATE ON import_conflicts
      BEGIN INSERT INTO conflict_writes VALUES (NEW.id); END`);
    const again = await importSource(lib.deps, { path: other }, testJob());
    expect(again.conflicts).toEqual(first.conflicts);
    expect(lib.db.prepare('SELECT count(*) FROM conflict_writes').pluck().get()).toBe(0);
    // A changed line still updates the question it asks.
    writeFileSync(other, [line('heat-food', 'Use an oven.'), line('cut-food', 'Use a knife.')].join('\n'));
    const changed = await importSource(lib.deps, { path: other }, testJob());
    expect(changed.conflicts.map((c) => c.id)).toEqual(first.conflicts.map((c) => c.id));
    const incoming = lib.db
      .prepare('SELECT incoming FROM import_conflicts WHERE id = ?')
      .pluck()
      .get(first.conflicts[0]!.id) as string;
    expect(incomingFromJson(incoming).body).toBe('Use an oven.');
    expect(lib.db.prepare('SELECT id FROM conflict_writes').pluck().all()).toEqual([first.conflicts[0]!.id]);
  });

  it('puts the connection back to its own checkpoint interval after an import, failed or not', async () => {
    const dump = path.join(lib.dir, 'one.jsonl');
    writeFileSync(dump, line('only-skill') + '\n');
    const before = lib.db.pragma('wal_autocheckpoint', { simple: true });
    await importSource(lib.deps, { path: dump }, testJob());
    expect(lib.db.pragma('wal_autocheckpoint', { simple: true })).toBe(before);
  });
});
