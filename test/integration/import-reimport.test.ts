// Re-importing a source: unchanged when nothing changed, updated after an edit, removed after a delete (through the
// trash: undo brings a removed skill back with its states and history); warnings listed.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getSkill,
  importSource,
  latestImportReport,
  listSkills,
  listSources,
  removeSource,
  searchKeyword,
} from '../../src/core/skills/index';
import { lastDeleted, undoLastDelete } from '../../src/core/sources/trash';
import { editStates, getStates, stateHistory, verifyStates } from '../../src/core/states/skill-states';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let root: string;
beforeEach(async () => {
  lib = tempLibrary();
  root = path.join(lib.dir, 'src');
  writeSkill(root, 'alpha', skillMd('alpha', 'First.'), { 'references/notes.md': 'original notes' });
  writeSkill(root, 'beta', skillMd('beta', 'Second.', 'Body.\n', 'version: 2\n'));
  writeSkill(root, 'gamma', skillMd('gamma', 'Third.'));
  const first = await importSource(lib.deps, { path: root }, testJob());
  expect(first.added).toHaveLength(3);
});
afterEach(() => lib.close());

describe('re-import', () => {
  it('reports everything unchanged when nothing changed', async () => {
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.unchanged.map((s) => s.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect([report.added, report.updated, report.removed, report.rejected]).toEqual([[], [], [], []]);
    expect(listSources(lib.db)).toHaveLength(1);
    expect(listSources(lib.db)[0]!.lastImport).toMatchObject({ unchanged: 3, added: 0 });
  });

  it('reports a skill updated after one of its package files changed, and the search sees the new text', async () => {
    const before = listSkills(lib.db).items.find((s) => s.name === 'alpha')!;
    writeFileSync(path.join(root, 'alpha/references/notes.md'), 'revised notes about quokkas');
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.updated).toEqual([{ name: 'alpha', relPath: 'alpha' }]);
    expect(report.unchanged).toHaveLength(2);
    const after = getSkill(lib.db, before.id);
    expect(after.contentHash).not.toBe(before.contentHash);
    expect(searchKeyword(lib.db, { query: 'quokkas' }).hits.map((h) => h.skill.id)).toEqual([before.id]);
    expect(searchKeyword(lib.db, { query: 'original' }).hits).toEqual([]);
  });

  it('reports a deleted skill removed and drops it from the library and the index', async () => {
    rmSync(path.join(root, 'gamma'), { recursive: true });
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.removed).toEqual([{ name: 'gamma', relPath: 'gamma' }]);
    expect(listSkills(lib.db).items.map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(searchKeyword(lib.db, { query: 'Third' }).hits).toEqual([]);
    expect((lib.db.prepare('SELECT COUNT(*) AS n FROM skills_fts').get() as { n: number }).n).toBe(2);
  });

  it('moves skills gone from the source to the trash, names them, flags the verified one; undo restores its states', async () => {
    const clock = () => new Date('2026-04-01T00:00:00.000Z');
    const beta = listSkills(lib.db).items.find((s) => s.name === 'beta')!;
    editStates(lib.db, clock, beta.id, {
      precondition: 'A kettle full of cold water.',
      completion: 'The water boils.',
    });
    verifyStates(lib.db, clock, beta.id);
    const history = stateHistory(lib.db, beta.id);
    expect(history.length).toBeGreaterThanOrEqual(2);
    rmSync(path.join(root, 'beta'), { recursive: true });
    rmSync(path.join(root, 'gamma'), { recursive: true });

    const report = await importSource(lib.deps, { path: root }, testJob());
    // The verified skill first, flagged; the plain one named too.
    expect(report.removed).toEqual([
      { name: 'beta', relPath: 'beta', reviewStatus: 'verified' },
      { name: 'gamma', relPath: 'gamma' },
    ]);
    expect([report.removedReviewed, report.removedToTrash]).toEqual([1, true]);
    const stored = latestImportReport(lib.db, report.sourceId)!;
    expect([stored.removed, stored.removedReviewed, stored.removedToTrash]).toEqual([
      report.removed,
      1,
      true,
    ]);
    expect(listSkills(lib.db).items.map((s) => s.name)).toEqual(['alpha']);
    expect(lastDeleted(lib.db)).toMatchObject({ kind: 'skills', skillCount: 2 });

    const restored = undoLastDelete(lib.db, '2026-04-01T00:01:00.000Z');
    expect(restored.restoredSkillIds).toHaveLength(2);
    expect(listSkills(lib.db).items.map((s) => s.name)).toEqual(['alpha', 'beta', 'gamma']);
    const back = listSkills(lib.db).items.find((s) => s.name === 'beta')!;
    expect(getStates(lib.db, back.id)).toMatchObject({
      status: 'verified',
      precondition: 'A kettle full of cold water.',
      completion: 'The water boils.',
    });
    expect(stateHistory(lib.db, back.id)).toEqual(history.map((h) => ({ ...h, skillId: back.id })));
    // Back in the text index too: one row per skill, and the search finds it.
    expect(searchKeyword(lib.db, { query: 'Third' }).hits.map((h) => h.skill.name)).toEqual(['gamma']);
    expect((lib.db.prepare('SELECT COUNT(*) AS n FROM skills_fts').get() as { n: number }).n).toBe(3);
  });

  it('keeps the stored version of a skill that became invalid, and says why it was not updated', async () => {
    writeFileSync(path.join(root, 'beta/SKILL.md'), '---\nname: beta\n---\nno description now\n');
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'beta',
        issues: [expect.objectContaining({ rule: 'description-required' })],
      }),
    ]);
    expect(report.removed).toEqual([]);
    expect(listSkills(lib.db).items.map((s) => s.name)).toContain('beta');
  });

  it('lists warnings and filters skills that have them', async () => {
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.warnings).toEqual([
      expect.objectContaining({
        name: 'beta',
        issues: [expect.objectContaining({ rule: 'unknown-key', line: 4 })],
      }),
    ]);
    expect(listSkills(lib.db, { hasWarnings: true }).items.map((s) => s.name)).toEqual(['beta']);
    expect(listSkills(lib.db, { hasWarnings: false }).total).toBe(2);
    expect(
      getSkill(lib.db, listSkills(lib.db, { hasWarnings: true }).items[0]!.id).warnings[0]!.message,
    ).toContain('"version"');
  });

  it('removes a whole source: its skills, text rows and reports', async () => {
    const other = path.join(lib.dir, 'other');
    writeSkill(other, 'delta', skillMd('delta', 'Fourth.'));
    const { sourceId } = await importSource(lib.deps, { path: other }, testJob());
    expect(latestImportReport(lib.db, sourceId)!.added).toEqual([{ name: 'delta', relPath: 'delta' }]);
    const result = removeSource(lib.deps, sourceId);
    expect(result.removed).toEqual([{ name: 'delta', relPath: 'delta' }]);
    expect(listSkills(lib.db).items.map((s) => s.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(searchKeyword(lib.db, { query: 'Fourth' }).hits).toEqual([]);
    expect(latestImportReport(lib.db, sourceId)).toBeUndefined();
    expect(() => removeSource(lib.deps, sourceId)).toThrow(/No source/);
  });
});
