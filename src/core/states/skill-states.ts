// Parsed states of skills and their review: parsed → edited → verified, every change kept in state_history so a
// correction is never lost and any earlier version can be restored.
import type { ReviewStatus } from '../../shared/api/library';
import type { SkillStates, StateHistoryEntry } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import type { Clock } from '../llm/ports';

/** Everything a history row keeps about a record, enough to restore it. */
export interface StatesSnapshot {
  status: ReviewStatus;
  precondition: string | null;
  completion: string | null;
  model: string | null;
  promptVersion: string | null;
  sourceHash: string | null;
  error: string | null;
}

export type HistoryAction = 'parse' | 'parse-failed' | 'reparse' | 'edit' | 'verify' | 'revert';

interface StatesRow {
  skill_id: number;
  precondition: string | null;
  completion: string | null;
  status: ReviewStatus;
  model: string | null;
  prompt_version: string | null;
  source_hash: string | null;
  raw_answer: string | null;
  error: string | null;
  updated_at: string;
}

export const protectedStatuses: readonly ReviewStatus[] = ['edited', 'verified'];

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
  return db.transaction(() => {
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
    const after: StatesSnapshot = { ...before, status: 'edited', precondition, completion, error: null };
    writeSnapshot(db, clock, skillId, after, 'edit', before, {});
    return getStates(db, skillId);
  })();
}

/** A curator confirms the states as right; a record without states cannot be verified. */
export function verifyStates(db: Db, clock: Clock, skillId: number): SkillStates {
  return db.transaction(() => {
    const before = currentSnapshot(db, skillId);
    if (before.completion === null) {
      throw new CuratorError(
        'CONFLICT',
        `Skill ${skillId} has no states to verify (it is ${before.status}); edit or parse it first`,
      );
    }
    if (before.status !== 'verified')
      writeSnapshot(db, clock, skillId, { ...before, status: 'verified' }, 'verify', before, {});
    return getStates(db, skillId);
  })();
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
  return db.transaction(() => {
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
  })();
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

export interface ParseRecord {
  outcome: 'parsed' | 'failed';
  precondition: string | null;
  completion: string | null;
  rawAnswer: string | null;
  error: string | null;
  model: string;
  promptVersion: string;
  sourceHash: string;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Stores what a parse produced. Edited and verified records are left alone unless `overwriteProtected` (the user
 * asked for this skill by id); whatever is replaced goes to history. Returns false when the record was protected.
 */
export function recordParse(
  db: Db,
  clock: Clock,
  skillId: number,
  parse: ParseRecord,
  overwriteProtected: boolean,
): boolean {
  return db.transaction(() => {
    const existing = readRow(db, skillId);
    const before = existing ? toSnapshot(existing) : null;
    if (before && protectedStatuses.includes(before.status) && !overwriteProtected) return false;
    const after: StatesSnapshot = {
      status: parse.outcome,
      precondition: parse.outcome === 'parsed' ? parse.precondition : null,
      completion: parse.outcome === 'parsed' ? parse.completion : null,
      model: parse.model,
      promptVersion: parse.promptVersion,
      sourceHash: parse.sourceHash,
      error: parse.outcome === 'failed' ? parse.error : null,
    };
    const hadValues = before !== null && before.completion !== null;
    const action: HistoryAction =
      parse.outcome === 'failed' ? 'parse-failed' : hadValues ? 'reparse' : 'parse';
    writeSnapshot(db, clock, skillId, after, action, before, {
      rawAnswer: parse.rawAnswer,
      promptTokens: parse.promptTokens,
      completionTokens: parse.completionTokens,
      parsed: true,
    });
    return true;
  })();
}

/** A parse of identical content made earlier (another copy of the skill, or this one before a revert). */
export function findCachedParse(
  db: Db,
  key: { sourceHash: string; promptVersion: string; model: string },
): { precondition: string | null; completion: string; rawAnswer: string | null } | undefined {
  const row = db
    .prepare(
      `SELECT precondition, completion, raw_answer FROM skill_states
       WHERE source_hash = ? AND prompt_version = ? AND model = ? AND status = 'parsed' LIMIT 1`,
    )
    .get(key.sourceHash, key.promptVersion, key.model) as
    { precondition: string | null; completion: string; raw_answer: string | null } | undefined;
  return row && { precondition: row.precondition, completion: row.completion, rawAnswer: row.raw_answer };
}

function writeSnapshot(
  db: Db,
  clock: Clock,
  skillId: number,
  after: StatesSnapshot,
  action: HistoryAction,
  before: StatesSnapshot | null,
  extra: { rawAnswer?: string | null; promptTokens?: number; completionTokens?: number; parsed?: boolean },
): void {
  const now = clock().toISOString();
  db.prepare(
    `INSERT INTO skill_states (skill_id, precondition, completion, status, model, prompt_version, source_hash,
       raw_answer, error, prompt_tokens, completion_tokens, parsed_at, created_at, updated_at)
     VALUES (@skillId, @precondition, @completion, @status, @model, @promptVersion, @sourceHash,
       @rawAnswer, @error, @promptTokens, @completionTokens, @parsedAt, @now, @now)
     ON CONFLICT (skill_id) DO UPDATE SET
       precondition = excluded.precondition, completion = excluded.completion, status = excluded.status,
       model = excluded.model, prompt_version = excluded.prompt_version, source_hash = excluded.source_hash,
       raw_answer = CASE WHEN @parsed THEN excluded.raw_answer ELSE skill_states.raw_answer END,
       error = excluded.error,
       prompt_tokens = CASE WHEN @parsed THEN excluded.prompt_tokens ELSE skill_states.prompt_tokens END,
       completion_tokens = CASE WHEN @parsed THEN excluded.completion_tokens ELSE skill_states.completion_tokens END,
       parsed_at = CASE WHEN @parsed THEN excluded.parsed_at ELSE skill_states.parsed_at END,
       updated_at = excluded.updated_at`,
  ).run({
    skillId,
    ...after,
    rawAnswer: extra.rawAnswer ?? null,
    promptTokens: extra.promptTokens ?? 0,
    completionTokens: extra.completionTokens ?? 0,
    parsedAt: extra.parsed ? now : null,
    parsed: extra.parsed ? 1 : 0,
    now,
  });
  db.prepare('INSERT INTO state_history (skill_id, action, before, after, at) VALUES (?, ?, ?, ?, ?)').run(
    skillId,
    action,
    before === null ? null : JSON.stringify(before),
    JSON.stringify(after),
    now,
  );
}

function currentSnapshot(db: Db, skillId: number): StatesSnapshot {
  const row = readRow(db, skillId);
  if (row) return toSnapshot(row);
  if (!db.prepare('SELECT 1 FROM skills WHERE id = ?').get(skillId)) {
    throw new CuratorError('NOT_FOUND', `No skill with id ${skillId}`);
  }
  return emptySnapshot();
}

function readRow(db: Db, skillId: number): StatesRow | undefined {
  return db.prepare('SELECT * FROM skill_states WHERE skill_id = ?').get(skillId) as StatesRow | undefined;
}

function toSnapshot(row: StatesRow): StatesSnapshot {
  return {
    status: row.status,
    precondition: row.precondition,
    completion: row.completion,
    model: row.model,
    promptVersion: row.prompt_version,
    sourceHash: row.source_hash,
    error: row.error,
  };
}

function emptySnapshot(): StatesSnapshot {
  return {
    status: 'unparsed',
    precondition: null,
    completion: null,
    model: null,
    promptVersion: null,
    sourceHash: null,
    error: null,
  };
}

function normaliseText(value: string | null): string | null {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  return text || null;
}

function normalisePrecondition(value: string | null): string | null {
  const text = normaliseText(value);
  return text === null || /^none\.?$/i.test(text) ? null : text;
}
