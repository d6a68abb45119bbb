// Same name, different content: recorded as a visible conflict, never a silent overwrite; the user resolves it each way.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getConflict,
  getSkill,
  importSource,
  listConflicts,
  listSkills,
  resolveConflict,
  searchKeyword,
} from '../../src/core/skills/index';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let first: string;
let second: string;
beforeEach(async () => {
  lib = tempLibrary();
  first = path.join(lib.dir, 'first');
  second = path.join(lib.dir, 'second');
  writeSkill(first, 'heat-food', skillMd('heat-food', 'Heat food in a microwave.', 'Use the microwave.\n'));
  writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food on a stove.', 'Use the stove.\n'));
  writeSkill(
    second,
    'copy-of-first',
    skillMd('heat-food', 'Heat food in a microwave.', 'Use the microwave.\n'),
  );
  await importSource(lib.deps, { path: first }, testJob());
});
afterEach(() => lib.close());

const bodies = () =>
  listSkills(lib.db)
    .items.map((s) => getSkill(lib.db, s.id).body.trim())
    .sort();

async function importSecond() {
  return importSource(lib.deps, { path: second, kind: 'folder', onConflict: 'record' }, testJob());
}

describe('name conflicts', () => {
  it('records a conflict, writes nothing for it, and lists both sides', async () => {
    const report = await importSecond();
    expect(report.added).toEqual([]);
    expect(report.conflicts).toEqual([expect.objectContaining({ name: 'heat-food', relPath: 'heat-food' })]);
    expect(bodies()).toEqual(['Use the microwave.']);
    const [conflict] = listConflicts(lib.db);
    expect(conflict!.existing!.description).toBe('Heat food in a microwave.');
    expect(conflict!.incoming.description).toBe('Heat food on a stove.');
    expect(conflict!.id).toBe(report.conflicts[0]!.id);
    expect(getConflict(lib.db, conflict!.id)).toMatchObject({
      existingSkillId: conflict!.existing!.id,
      incomingDescription: 'Heat food on a stove.',
    });
  });

  it('lists conflicts without the incoming bodies, which one conflict asked for by id still has', async () => {
    const body = 'Stir now and then so nothing sticks to the pan.\n'.repeat(400);
    writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food on a stove.', body));
    await importSecond();
    const [listed] = listConflicts(lib.db);
    expect(listed).toMatchObject({ name: 'heat-food', incomingDescription: 'Heat food on a stove.' });
    expect(listed!.incoming).toMatchObject({ description: 'Heat food on a stove.' });
    expect('body' in listed!.incoming).toBe(false);
    // A few hundred bytes per conflict, whatever the length of the incoming SKILL.md (here over 19 KB).
    expect(JSON.stringify(listed).length).toBeLessThan(1500);
    expect(getConflict(lib.db, listed!.id).incoming.body).toBe(body);
  });

  it('dedupes identical content found at another place (even under another folder name)', async () => {
    // The copy's folder differs from its name, so relax that rule to reach the hash check.
    const report = await importSource(lib.deps, { path: second }, testJob(), {
      settings: { nameFolderMismatch: 'warning' },
    });
    expect(report.duplicates).toEqual([expect.objectContaining({ relPath: 'copy-of-first' })]);
    expect(listSkills(lib.db).total).toBe(1);
  });

  it('keep-both writes the incoming skill beside the existing one', async () => {
    const { conflicts } = await importSecond();
    const outcome = resolveConflict(lib.deps, conflicts[0]!.id, 'keep-both');
    expect(bodies()).toEqual(['Use the microwave.', 'Use the stove.']);
    expect(getSkill(lib.db, outcome.skillId!).relPath).toBe('heat-food');
    expect(listConflicts(lib.db)).toEqual([]);
    expect(listConflicts(lib.db, { pendingOnly: false }).map((c) => c.resolution)).toEqual(['keep-both']);
    expect(searchKeyword(lib.db, { query: 'stove' }).hits).toHaveLength(1);
    // Re-importing both sources changes nothing now.
    const again = await importSecond();
    expect([again.added, again.updated, again.conflicts, again.removed]).toEqual([[], [], [], []]);
  });

  it('replace puts the incoming content in place of the existing skill, keeping its id', async () => {
    const { conflicts } = await importSecond();
    const existingId = conflicts[0]!.existingSkillId;
    const outcome = resolveConflict(lib.deps, conflicts[0]!.id, 'replace');
    expect(outcome.skillId).toBe(existingId);
    expect(listConflicts(lib.db, { pendingOnly: false }).map((c) => c.resolution)).toEqual([
      'replace',
      'skip',
    ]);
    expect(bodies()).toEqual(['Use the stove.']);
    expect(searchKeyword(lib.db, { query: 'microwave' }).hits).toEqual([]);
    expect(searchKeyword(lib.db, { query: 'stove' }).hits.map((h) => h.skill.id)).toEqual([existingId]);
    // The replaced version does not come back when its source is imported again.
    const again = await importSource(lib.deps, { path: first }, testJob());
    expect([again.added, again.conflicts, again.removed]).toEqual([[], [], []]);
    expect(again.unchanged).toEqual([{ name: 'heat-food', relPath: 'heat-food' }]);
    expect(bodies()).toEqual(['Use the stove.']);
  });

  it('skip leaves the library as it was and is remembered on re-import', async () => {
    const { conflicts } = await importSecond();
    resolveConflict(lib.deps, conflicts[0]!.id, 'skip');
    expect(bodies()).toEqual(['Use the microwave.']);
    expect(listConflicts(lib.db)).toEqual([]);
    expect(listConflicts(lib.db, { pendingOnly: false })[0]!.resolution).toBe('skip');
    const again = await importSecond();
    expect(again.conflicts).toEqual([]);
    expect(again.unchanged.map((s) => s.relPath)).toEqual(['heat-food']);
  });

  it('asks again when skipped content changes, and refuses to resolve twice', async () => {
    const { conflicts } = await importSecond();
    resolveConflict(lib.deps, conflicts[0]!.id, 'skip');
    expect(() => resolveConflict(lib.deps, conflicts[0]!.id, 'replace')).toThrow(/already resolved/);
    expect(() => resolveConflict(lib.deps, 999, 'skip')).toThrow(/No import conflict/);
    writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food on a gas stove.'));
    const again = await importSecond();
    expect(again.conflicts).toHaveLength(1);
  });

  it('a pending conflict is not duplicated by re-importing the same source', async () => {
    const a = await importSecond();
    const b = await importSecond();
    expect(b.conflicts.map((c) => c.id)).toEqual(a.conflicts.map((c) => c.id));
    expect(listConflicts(lib.db)).toHaveLength(1);
  });

  it('onConflict keep-both at import time writes both and keeps a resolved record', async () => {
    const report = await importSource(lib.deps, { path: second, onConflict: 'keep-both' }, testJob());
    expect(report.added).toEqual([{ name: 'heat-food', relPath: 'heat-food' }]);
    expect(bodies()).toEqual(['Use the microwave.', 'Use the stove.']);
    expect(listConflicts(lib.db, { pendingOnly: false })[0]!.resolution).toBe('keep-both');
  });

  it('stores the incoming text once (the body as its length in the full text) and gives it back whole', async () => {
    await importSecond();
    const stored = JSON.parse(
      lib.db.prepare('SELECT unpack_text(incoming) FROM import_conflicts').pluck().get() as string,
    ) as Record<string, unknown>;
    expect(stored.body).toBeUndefined();
    expect(String(stored.fullText).endsWith('Use the stove.\n')).toBe(true);
    const [conflict] = listConflicts(lib.db);
    expect(getConflict(lib.db, conflict!.id).incoming.body).toBe('Use the stove.\n');
    resolveConflict(lib.deps, conflict!.id, 'replace');
    expect(bodies()).toEqual(['Use the stove.']);
  });
});
