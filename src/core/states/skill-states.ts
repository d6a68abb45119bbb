// Parsed states of skills and their review: parsed → edited → verified, every change kept in state_history so a
// correction is never lost and any earlier version can be restored.
import type { ReviewStatus } from '../../shared/api/library';
import type { SkillStates, StateHistoryEntry } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import type { Clock } from '../llm/ports';
import {
  currentSnapshot,
  emptySnapshot,
  readRow,
  writeSnapshot,
  type StatesSnapshot,
} from './states-records';
import { getFailedAttempt } from './parse-attempts';

export {
  recordParse,
  findCachedParse,
  protectedStatuses,
  type ParseRecord,
  type StatesSnapshot,
  type HistoryAction,
} from './states-records';

export function getStates(db: Db, skillId: number): SkillStates {
  const skill = db.prepare('SELECT content_hash FROM skills WHERE id = ?').get(skillId) as
    { content_hash: string } | undefined;
  if (!skill) throw new CuratorError('NOT_FOUND', `No skill with id ${skillId}`);
  const row = readRow(db, skillId);
  if (!row) {
    return {
      skillId,
      precondition: null,
      completion: null,
      status: 'unparsed',
      model: null,
      promptVersion: null,
      rawAnswer: null,
      error: null,
      outdated: false,
      updatedAt: null,
      failedAttempt: getFailedAttempt(db, skillId),
    };
  }
  return {
    skillId,
    precondition: row.precondition,
    completion: row.completion,
    status: row.status,
    model: row.model,
    promptVersion: row.prompt_version,
    rawAnswer: row.raw_answer,
    error: row.error,
    outdated: row.source_hash !== null && row.source_hash !== skill.content_hash,
    updatedAt: row.updated_at,
    failedAttempt: getFailedAttempt(db, skillId),
  };
}

export interface StatesEdit {
  /** A state, or null / '' / 'None' for a skill that needs nothing. Absent: unchanged. */
  precondition?: string | null;
  /** Absent: unchanged. Must end up non-empty. */
  completion?: string | null;
}

/** A human correction: the record becomes `edited`, and the old values go to history. */
export function editStates(db: Db, clock: Clock, skillId: number, edit: StatesEdit): SkillStates {
  if (edit.precondition === undefined && edit.completion === undefined) {
    throw new CuratorError('INVALID_ARGUMENT', 'Give a precondition, a completion state, or both');
  }
  return db
    .transaction(() => {
      const before = currentSnapshot(db, skillId);
      const precondition =
        edit.precondition === undefined ? before.precondition : normalisePrecondition(edit.precondition);
      const completion = edit.completion === undefined ? before.completion : normaliseText(edit.completion);
      if (!completion) {
        throw new CuratorError(
          'INVALID_ARGUMENT',
          'The completion state cannot be empty: say what holds once the skill has run',
        );
      }
      // The curator judged the skill as it is now: the record is current until the skill changes again.
      const after: StatesSnapshot = {
        ...before,
        status: 'edited',
        precondition,
        completion,
        error: null,
        sourceHash: contentHash(db, skillId),
      };
      writeSnapshot(db, clock, skillId, after, 'edit', before, {});
      return getStates(db, skillId);
    })
    .immediate();
}

/** A curator confirms the states as right; a record without states cannot be verified. `batch`: see writeSnapshot. */
export function verifyStates(db: Db, clock: Clock, skillId: number, batch?: string): SkillStates {
  return db
    .transaction(() => {
      const before = currentSnapshot(db, skillId);
      if (before.completion === null) {
        throw new CuratorError(
          'CONFLICT',
          `Skill ${skillId} has no states to verify (it is ${before.status}); edit or parse it first`,
        );
      }
      const sourceHash = contentHash(db, skillId);
      if (before.status !== 'verified' || before.sourceHash !== sourceHash) {
        writeSnapshot(db, clock, skillId, { ...before, status: 'verified', sourceHash }, 'verify', before, {
          batch,
        });
      }
      return getStates(db, skillId);
    })
    .immediate();
}

/** Newest first. */
export function stateHistory(db: Db, skillId: number): StateHistoryEntry[] {
  currentSnapshot(db, skillId);
  const rows = db
    .prepare(
      'SELECT id, skill_id, action, before, after, at FROM state_history WHERE skill_id = ? ORDER BY id DESC',
    )
    .all(skillId) as {
    id: number;
    skill_id: number;
    action: string;
    before: string | null;
    after: string;
    at: string;
  }[];
  const brief = (json: string | null) => {
    if (json === null) return null;
    const s = JSON.parse(json) as StatesSnapshot;
    return { precondition: s.precondition, completion: s.completion, status: s.status };
  };
  return rows.map((r) => ({
    id: r.id,
    skillId: r.skill_id,
    action: r.action,
    before: brief(r.before),
    after: brief(r.after),
    at: r.at,
  }));
}

/** Restores the record as it was before the given history entry; the revert itself is a new history entry. */
export function revertStates(db: Db, clock: Clock, skillId: number, historyId: number): SkillStates {
  return db
    .transaction(() => {
      const entry = db
        .prepare('SELECT before FROM state_history WHERE id = ? AND skill_id = ?')
        .get(historyId, skillId) as { before: string | null } | undefined;
      if (!entry) throw new CuratorError('NOT_FOUND', `Skill ${skillId} has no history entry ${historyId}`);
      const current = currentSnapshot(db, skillId);
      const target: StatesSnapshot = entry.before
        ? (JSON.parse(entry.before) as StatesSnapshot)
        : emptySnapshot();
      writeSnapshot(db, clock, skillId, target, 'revert', current, {});
      return getStates(db, skillId);
    })
    .immediate();
}

/** The next skill (by id, wrapping around) whose status is one of `statuses`; skills without a record are unparsed. */
export function nextForReview(
  db: Db,
  options: { afterId?: number; statuses?: ReviewStatus[] } = {},
): { skillId: number | null } {
  const statuses = options.statuses?.length
    ? options.statuses
    : (['parsed', 'failed', 'edited'] as ReviewStatus[]);
  const marks = statuses.map(() => '?').join(',');
  const query = db.prepare(
    `SELECT s.id FROM skills s LEFT JOIN skill_states st ON st.skill_id = s.id
     WHERE COALESCE(st.status, 'unparsed') IN (${marks}) AND s.id > ? ORDER BY s.id LIMIT 1`,
  );
  const after = (query.get(...statuses, options.afterId ?? 0) ?? query.get(...statuses, 0)) as
    { id: number } | undefined;
  return { skillId: after?.id ?? null };
}
function contentHash(db: Db, skillId: number): string {
  return (db.prepare('SELECT content_hash FROM skills WHERE id = ?').get(skillId) as { content_hash: string })
    .content_hash;
}

function normaliseText(value: string | null): string | null {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  return text || null;
}

function normalisePrecondition(value: string | null): string | null {
  const text = normaliseText(value);
  return text === null || /^none\.?$/i.test(text) ? null : text;
}
