// Tags on skills and the bulk verify, on a real SQLite file: tags are normalised, filter lists and search, travel
// with a deleted skill through undo, and bad input is refused with nothing written; verifyMany verifies a
// selection in one transaction, each verify undoable through the skill's history.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteToTrash, undoLastDelete } from '../../src/core/sources/trash';
import { recordParse, revertStates, stateHistory, getStates } from '../../src/core/states';
import { filteredSkillIds } from '../../src/core/search/skill-filter';
import { listSkills } from '../../src/core/store/library-repo';
import { addTags, listTags, removeTags, tagsOf } from '../../src/core/tags/tags-repo';
import { unverifyMany, verifyMany } from '../../src/core/tags/verify-many';
import { CuratorError } from '../../src/shared/errors';
import { fixedClock, insertSkill, openTempLibrary, type TempLibrary } from './llm-harness';

let lib: TempLibrary;
beforeEach(() => (lib = openTempLibrary()));
afterEach(() => lib.close());

function parse(id: number): void {
  recordParse(
    lib.db,
    fixedClock,
    id,
    {
      outcome: 'parsed',
      precondition: 'Data is loaded.',
      completion: 'A chart exists.',
      rawAnswer: 'Precondition_State: Data is loaded.\nCompletion_State: A chart exists.',
      error: null,
      model: 'm',
      promptVersion: 'skill-parse/1',
      sourceHash: 'h',
      promptTokens: 10,
      completionTokens: 5,
    },
    false,
  );
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CuratorError);
    return (e as CuratorError).code;
  }
  throw new Error('expected an error');
}

describe('skill tags', () => {
  it('adds, lists, filters and removes tags, trimmed and lower-cased', () => {
    const [a, b, c] = ['alpha', 'beta', 'gamma'].map((n) => insertSkill(lib.db, n));
    expect(addTags(lib.db, [a, b], ['  Household ', 'charts'])).toBe(4);
    expect(addTags(lib.db, [a], ['household'])).toBe(0);
    expect(listTags(lib.db)).toEqual([
      { tag: 'charts', skills: 2 },
      { tag: 'household', skills: 2 },
    ]);
    expect(tagsOf(lib.db, [a!, c!]).get(a!)).toEqual(['charts', 'household']);
    expect(listSkills(lib.db, { tag: 'HOUSEHOLD' }).items.map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(listSkills(lib.db, { tag: 'household', status: 'unparsed' }).total).toBe(2);
    expect([...filteredSkillIds(lib.db, { tag: 'charts' })].sort()).toEqual([a, b]);
    expect(listSkills(lib.db, { tag: 'nothing' }).total).toBe(0);
    expect(removeTags(lib.db, [b], ['household'])).toBe(1);
    expect(listSkills(lib.db, { tag: 'household' }).items.map((s) => s.id)).toEqual([a]);
  });

  it('refuses bad input and writes nothing', () => {
    const a = insertSkill(lib.db, 'alpha');
    expect(code(() => addTags(lib.db, [a], ['  ']))).toBe('INVALID_ARGUMENT');
    expect(code(() => addTags(lib.db, [a], ['a,b']))).toBe('INVALID_ARGUMENT');
    expect(code(() => addTags(lib.db, [a], ['x'.repeat(61)]))).toBe('INVALID_ARGUMENT');
    expect(code(() => addTags(lib.db, [], ['ok']))).toBe('INVALID_ARGUMENT');
    expect(code(() => addTags(lib.db, [a, 999], ['ok']))).toBe('NOT_FOUND');
    expect(listTags(lib.db)).toEqual([]);
  });

  it('a deleted skill takes its tags to the trash and gets them back on undo', () => {
    const a = insertSkill(lib.db, 'alpha');
    addTags(lib.db, [a], ['keep-me']);
    deleteToTrash(lib.db, { skillIds: [a] }, '2026-03-01T00:00:00.000Z');
    expect(listTags(lib.db)).toEqual([]);
    const restored = undoLastDelete(lib.db, '2026-03-01T00:01:00.000Z');
    expect(tagsOf(lib.db, restored.restoredSkillIds).get(restored.restoredSkillIds[0]!)).toEqual(['keep-me']);
  });
});

describe('verifyMany', () => {
  it('verifies parsed skills in one go, skips unparsed and already verified, and each can be reverted', () => {
    const ids = Array.from({ length: 5 }, (_, i) => insertSkill(lib.db, `s${i}`));
    for (const id of ids.slice(0, 4)) parse(id);
    expect(verifyMany(lib.db, fixedClock, [ids[0]])).toMatchObject({ verified: [ids[0]] });
    const result = verifyMany(lib.db, fixedClock, ids);
    expect(result.verified).toEqual(ids.slice(1, 4));
    expect(result.alreadyVerified).toEqual([ids[0]]);
    expect(result.skipped).toEqual([{ skillId: ids[4], status: 'unparsed' }]);
    for (const id of ids.slice(0, 4)) expect(getStates(lib.db, id).status).toBe('verified');
    const last = stateHistory(lib.db, ids[1]!).find((h) => h.action === 'verify')!;
    revertStates(lib.db, fixedClock, ids[1]!, last.id);
    expect(getStates(lib.db, ids[1]!).status).toBe('parsed');
  });

  it('unverifyMany puts back the states before the last verify of each skill, in one go', () => {
    const ids = Array.from({ length: 3 }, (_, i) => insertSkill(lib.db, `u${i}`));
    for (const id of ids) parse(id);
    verifyMany(lib.db, fixedClock, ids.slice(0, 2));
    expect(unverifyMany(lib.db, fixedClock, ids)).toEqual({ reverted: ids.slice(0, 2) });
    for (const id of ids) expect(getStates(lib.db, id).status).toBe('parsed');
    expect(stateHistory(lib.db, ids[0]!)[0]!.action).not.toBe('verify');
  });

  it('an unknown skill in the selection verifies none of them', () => {
    const a = insertSkill(lib.db, 'alpha');
    parse(a);
    expect(code(() => verifyMany(lib.db, fixedClock, [a, 999]))).toBe('NOT_FOUND');
    expect(getStates(lib.db, a).status).toBe('parsed');
    expect(code(() => verifyMany(lib.db, fixedClock, ['x']))).toBe('INVALID_ARGUMENT');
  });
});
