// Profiles: named sets of skills by hand, by filter, and from a selection run's or an evaluation run's answers.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addToProfile,
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  removeFromProfile,
  resolveProfileSkillIds,
  updateProfile,
} from '../../src/core/profiles';
import { importSource } from '../../src/core/skills/index';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
const idOf = (name: string): number =>
  lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
const names = (ids: number[]): string[] =>
  ids.map((id) => lib.db.prepare('SELECT name FROM skills WHERE id = ?').pluck().get(id) as string);

beforeEach(async () => {
  lib = tempLibrary();
  const root = path.join(lib.dir, 'src');
  for (const n of ['heat-object', 'cool-object', 'put-object', 'slice-bread'])
    writeSkill(root, n, skillMd(n, `Does ${n}.`));
  await importSource(lib.deps, { path: root }, testJob());
});
afterEach(() => lib.close());

describe('profiles', () => {
  it('keeps a hand-made set, edits it, and resolves it to library ids in name order', () => {
    const { profile } = createProfile(lib.deps, {
      name: 'kitchen',
      description: 'cooking',
      skillIds: [idOf('put-object'), idOf('heat-object')],
    });
    expect(profile.skills.map((s) => s.name)).toEqual(['heat-object', 'put-object']);
    expect(profile.origin.kind).toBe('manual');
    addToProfile(lib.deps, 'kitchen', [idOf('cool-object')]);
    removeFromProfile(lib.deps, 'kitchen', [idOf('put-object')]);
    expect(names(resolveProfileSkillIds(lib.deps, 'kitchen'))).toEqual(['cool-object', 'heat-object']);
    expect(listProfiles(lib.deps)).toMatchObject([
      { name: 'kitchen', skillCount: 2, description: 'cooking' },
    ]);
    updateProfile(lib.deps, { name: 'kitchen', rename: 'cooking' });
    expect(() => getProfile(lib.deps, 'kitchen')).toThrow(/No profile named "kitchen"/);
    deleteProfile(lib.deps, 'cooking');
    expect(listProfiles(lib.deps)).toEqual([]);
  });

  it('follows its filter as the library changes, and keeps hand removals out', async () => {
    createProfile(lib.deps, { name: 'objects', filter: { nameContains: 'OBJECT' } });
    expect(names(resolveProfileSkillIds(lib.deps, 'objects'))).toEqual([
      'cool-object',
      'heat-object',
      'put-object',
    ]);
    removeFromProfile(lib.deps, 'objects', [idOf('put-object')]);
    addToProfile(lib.deps, 'objects', [idOf('slice-bread')]);
    writeSkill(path.join(lib.dir, 'src'), 'wash-object', skillMd('wash-object', 'Washes.'));
    await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    const detail = getProfile(lib.deps, 'objects');
    expect(detail.skills.map((s) => [s.name, s.via])).toEqual([
      ['cool-object', 'filter'],
      ['heat-object', 'filter'],
      ['slice-bread', 'hand'],
      ['wash-object', 'filter'],
    ]);
    expect(detail.excluded.map((s) => s.name)).toEqual(['put-object']);
    // Dropping the filter keeps today's members, by hand.
    const frozen = updateProfile(lib.deps, { name: 'objects', filter: null });
    expect(frozen.filter).toBeNull();
    expect(frozen.skills.every((s) => s.via === 'hand')).toBe(true);
    expect(frozen.skills).toHaveLength(4);
  });

  it('is made from a selection run answer, by the ids its trace recorded', () => {
    const answer = [
      { name: 'heat-object', skillId: idOf('heat-object'), candidate: 0, stages: [0] },
      { name: 'cool-object', skillId: idOf('cool-object'), candidate: 1, stages: [1] },
    ];
    const runId = Number(
      lib.db
        .prepare(
          `INSERT INTO selection_runs (task, variant, k, answer, trace_version, trace, origin, created_at)
           VALUES ('heat then cool', 'full', NULL, ?, 1, ?, 'lab', '2026-01-01')`,
        )
        .run(JSON.stringify(answer.map((a) => a.name)), JSON.stringify({ answer })).lastInsertRowid,
    );
    const { profile, notFound } = createProfile(lib.deps, { name: 'from run', fromRun: runId });
    expect(notFound).toEqual([]);
    expect(profile.origin).toEqual({ kind: 'selection-run', id: runId, note: null });
    expect(profile.skills.map((s) => s.name)).toEqual(['cool-object', 'heat-object']);
    expect(() => createProfile(lib.deps, { name: 'nope', fromRun: 999 })).toThrow(/No selection run 999/);
  });

  it('is made from an evaluation run answers, one variant, reporting names the library lacks', () => {
    lib.db
      .prepare("INSERT INTO label_sets (id, name, created_at, updated_at) VALUES (1, 'set', 'x', 'x')")
      .run();
    lib.db
      .prepare(
        "INSERT INTO eval_runs (id, set_id, status, request, engines, created_at) VALUES (7, 1, 'done', '{}', '{}', 'x')",
      )
      .run();
    const result = lib.db.prepare(
      "INSERT INTO eval_results (run_id, item_id, variant, k, answer, metrics) VALUES (7, ?, ?, 0, ?, '{}')",
    );
    result.run('a', 'full', JSON.stringify(['heat-object', 'gone-skill']));
    result.run('b', 'full', JSON.stringify(['put-object']));
    result.run('a', 'rerank', JSON.stringify(['slice-bread']));
    const { profile, notFound } = createProfile(lib.deps, {
      name: 'eval',
      fromEval: { runId: 7, variant: 'full' },
    });
    expect(profile.skills.map((s) => s.name)).toEqual(['heat-object', 'put-object']);
    expect(notFound).toEqual(['gone-skill']);
    expect(profile.origin).toEqual({ kind: 'eval-run', id: 7, note: 'variant full' });
  });

  it('refuses bad names, duplicates, unknown skills and unknown filter fields, changing nothing', () => {
    createProfile(lib.deps, { name: 'one', skillIds: [idOf('heat-object')] });
    expect(() => createProfile(lib.deps, { name: 'ONE' })).toThrow(/exists already/);
    expect(() => createProfile(lib.deps, { name: '../x' })).toThrow(/profile name/);
    expect(() => createProfile(lib.deps, { name: 'two', skillIds: [99999] })).toThrow(
      /No skill with id 99999/,
    );
    expect(() => createProfile(lib.deps, { name: 'three', filter: { colour: 'red' } as never })).toThrow(
      /Unknown filter field colour/,
    );
    expect(() => addToProfile(lib.deps, 'one', [99999])).toThrow(/No skill with id/);
    expect(listProfiles(lib.deps).map((p) => p.name)).toEqual(['one']);
    expect(resolveProfileSkillIds(lib.deps, 'one')).toEqual([idOf('heat-object')]);
  });
});
