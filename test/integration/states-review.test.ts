// Review of parsed states on a real SQLite file: parsed → edited → verified, history with before/after, revert,
// the review queue, and a schema that refuses half-filled records.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CuratorError } from '../../src/shared/errors';
import {
  editStates,
  getStates,
  nextForReview,
  recordParse,
  revertStates,
  stateHistory,
  verifyStates,
  type ParseRecord,
} from '../../src/core/states/skill-states';
import {
  changeSkillBody,
  fixedClock,
  insertSkill,
  openTempLibrary,
  statesRow,
  type TempLibrary,
} from './llm-harness';

let lib: TempLibrary;
beforeEach(() => (lib = openTempLibrary()));
afterEach(() => lib.close());

const parsed = (
  completion = 'A chart exists.',
  precondition: string | null = 'Sales data is loaded.',
): ParseRecord => ({
  outcome: 'parsed',
  precondition,
  completion,
  rawAnswer: `Precondition_State: ${precondition ?? 'None'}\nCompletion_State: ${completion}`,
  error: null,
  model: 'm',
  promptVersion: 'skill-parse/1',
  sourceHash: 'h',
  promptTokens: 10,
  completionTokens: 5,
});

function thrown(fn: () => unknown): CuratorError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CuratorError);
    return e as CuratorError;
  }
  throw new Error('expected an error');
}

describe('states review', () => {
  it('an unparsed skill reads as unparsed; an unknown one is NOT_FOUND', () => {
    const id = insertSkill(lib.db, 'fresh');
    expect(getStates(lib.db, id)).toMatchObject({
      status: 'unparsed',
      precondition: null,
      completion: null,
      outdated: false,
    });
    expect(thrown(() => getStates(lib.db, 999)).code).toBe('NOT_FOUND');
  });

  it('edit → edited with a history row holding before and after; verify → verified', () => {
    const id = insertSkill(lib.db, 'chart');
    recordParse(lib.db, fixedClock, id, parsed(), false);
    const edited = editStates(lib.db, fixedClock, id, {
      completion: '  A bar chart of sales\n by region exists. ',
    });
    expect(edited).toMatchObject({
      status: 'edited',
      precondition: 'Sales data is loaded.',
      completion: 'A bar chart of sales by region exists.',
    });
    const verified = verifyStates(lib.db, fixedClock, id);
    expect(verified.status).toBe('verified');
    const history = stateHistory(lib.db, id);
    expect(history.map((h) => h.action)).toEqual(['verify', 'edit', 'parse']);
    expect(history[1]).toMatchObject({
      before: { status: 'parsed', completion: 'A chart exists.' },
      after: { status: 'edited', completion: 'A bar chart of sales by region exists.' },
      at: '2026-03-01T12:00:00.000Z',
    });
    expect(history[2]?.before).toBeNull();
  });

  it('an edit or verification is of the skill as it is now: outdated only once the skill changes again', () => {
    const id = insertSkill(lib.db, 'moving');
    recordParse(lib.db, fixedClock, id, parsed(), false); // parsed from content hash 'h', not the skill's
    expect(getStates(lib.db, id).outdated).toBe(true);
    expect(verifyStates(lib.db, fixedClock, id).outdated).toBe(false);
    changeSkillBody(lib.db, id, 'New text.');
    expect(getStates(lib.db, id).outdated).toBe(true);
    expect(editStates(lib.db, fixedClock, id, { completion: 'Re-checked.' }).outdated).toBe(false);
  });

  it('typing None (or nothing) as precondition means the skill needs nothing', () => {
    const id = insertSkill(lib.db, 'starter');
    recordParse(lib.db, fixedClock, id, parsed(), false);
    expect(editStates(lib.db, fixedClock, id, { precondition: 'none' }).precondition).toBeNull();
    expect(editStates(lib.db, fixedClock, id, { precondition: 'A file exists.' }).precondition).toBe(
      'A file exists.',
    );
    expect(editStates(lib.db, fixedClock, id, { precondition: '' }).precondition).toBeNull();
  });

  it('a failed or unparsed skill can be typed by hand, but not left without a completion', () => {
    const id = insertSkill(lib.db, 'by-hand');
    expect(thrown(() => editStates(lib.db, fixedClock, id, { precondition: 'X.' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(thrown(() => editStates(lib.db, fixedClock, id, {})).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => verifyStates(lib.db, fixedClock, id)).code).toBe('CONFLICT');
    expect(statesRow(lib.db, id)).toBeUndefined();
    const s = editStates(lib.db, fixedClock, id, { completion: 'Done.' });
    expect(s).toMatchObject({ status: 'edited', precondition: null, completion: 'Done.' });
    expect(thrown(() => editStates(lib.db, fixedClock, id, { completion: '   ' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(getStates(lib.db, id).completion).toBe('Done.');
  });

  it('revert restores the record as it was before an entry, and is itself in history', () => {
    const id = insertSkill(lib.db, 'undo');
    recordParse(lib.db, fixedClock, id, parsed(), false);
    editStates(lib.db, fixedClock, id, { completion: 'First edit.' });
    editStates(lib.db, fixedClock, id, { completion: 'Second edit.' });
    const firstEdit = stateHistory(lib.db, id).find((h) => h.after?.completion === 'First edit.')!;
    const restored = revertStates(lib.db, fixedClock, id, firstEdit.id);
    expect(restored).toMatchObject({ status: 'parsed', completion: 'A chart exists.', model: 'm' });
    const top = stateHistory(lib.db, id)[0]!;
    expect(top).toMatchObject({
      action: 'revert',
      before: { completion: 'Second edit.' },
      after: { completion: 'A chart exists.' },
    });
    // Undo the revert: back to the second edit.
    expect(revertStates(lib.db, fixedClock, id, top.id)).toMatchObject({
      status: 'edited',
      completion: 'Second edit.',
    });
    expect(thrown(() => revertStates(lib.db, fixedClock, id, 12345)).code).toBe('NOT_FOUND');
  });

  it('a parse does not overwrite an edit unless asked, and a failed re-parse keeps the states, the attempt beside them', () => {
    const id = insertSkill(lib.db, 'guarded');
    recordParse(lib.db, fixedClock, id, parsed(), false);
    editStates(lib.db, fixedClock, id, { completion: 'Mine.' });
    expect(recordParse(lib.db, fixedClock, id, parsed('LLM.'), false)).toBe(false);
    expect(getStates(lib.db, id).completion).toBe('Mine.');
    const failed: ParseRecord = {
      ...parsed(),
      outcome: 'failed',
      precondition: null,
      completion: null,
      rawAnswer: 'garbage',
      error: 'bad',
    };
    const historyBefore = stateHistory(lib.db, id).length;
    expect(recordParse(lib.db, fixedClock, id, failed, true)).toBe(true);
    expect(getStates(lib.db, id)).toMatchObject({
      status: 'edited',
      completion: 'Mine.',
      error: null,
      failedAttempt: { rawAnswer: 'garbage', error: 'bad', model: 'm', problem: null },
    });
    expect(stateHistory(lib.db, id)).toHaveLength(historyBefore);
    // The next good parse (the curator chose Replace) clears the failed attempt.
    expect(recordParse(lib.db, fixedClock, id, parsed('LLM.'), true)).toBe(true);
    expect(getStates(lib.db, id)).toMatchObject({ status: 'parsed', failedAttempt: null });
  });

  it('a failed first parse stores the failure in the record and as the attempt', () => {
    const id = insertSkill(lib.db, 'first-fail');
    const failed: ParseRecord = {
      ...parsed(),
      outcome: 'failed',
      precondition: null,
      completion: null,
      rawAnswer: 'garbage',
      error: 'bad',
    };
    expect(recordParse(lib.db, fixedClock, id, failed, false)).toBe(true);
    expect(getStates(lib.db, id)).toMatchObject({
      status: 'failed',
      completion: null,
      rawAnswer: 'garbage',
      error: 'bad',
      failedAttempt: { rawAnswer: 'garbage', error: 'bad' },
    });
  });

  it('the schema refuses a half-filled record', () => {
    const id = insertSkill(lib.db, 'schema');
    const insert = (status: string, pre: string | null, post: string | null) =>
      lib.db
        .prepare(
          "INSERT INTO skill_states (skill_id, status, precondition, completion, created_at, updated_at) VALUES (?, ?, ?, ?, 'x', 'x')",
        )
        .run(id, status, pre, post);
    expect(() => insert('parsed', 'A.', null)).toThrow(/CHECK/);
    expect(() => insert('failed', null, 'B.')).toThrow(/CHECK/);
    expect(() => insert('verified', null, null)).toThrow(/CHECK/);
  });

  it('states and history go when the skill is deleted', () => {
    const id = insertSkill(lib.db, 'gone');
    recordParse(lib.db, fixedClock, id, parsed(), false);
    lib.db.prepare('DELETE FROM skills WHERE id = ?').run(id);
    expect(statesRow(lib.db, id)).toBeUndefined();
    expect(lib.db.prepare('SELECT COUNT(*) AS n FROM state_history').get()).toEqual({ n: 0 });
  });

  it('walks the review queue by id, wrapping around, counting skills without a record as unparsed', () => {
    const a = insertSkill(lib.db, 'a');
    const b = insertSkill(lib.db, 'b');
    const c = insertSkill(lib.db, 'c');
    recordParse(lib.db, fixedClock, a, parsed(), false);
    recordParse(lib.db, fixedClock, c, parsed(), false);
    expect(nextForReview(lib.db)).toEqual({ skillId: a });
    expect(nextForReview(lib.db, { afterId: a })).toEqual({ skillId: c });
    expect(nextForReview(lib.db, { afterId: c })).toEqual({ skillId: a });
    expect(nextForReview(lib.db, { statuses: ['unparsed'] })).toEqual({ skillId: b });
    expect(nextForReview(lib.db, { statuses: ['verified'] })).toEqual({ skillId: null });
  });
});
