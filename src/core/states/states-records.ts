// Writing states records and their history rows: the one place that changes skill_states, so that every change
// leaves a history entry and no record is ever half-filled.
import type { ReviewStatus } from '../../shared/api/library';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import type { Clock } from '../llm/ports';
import { clearFailedAttempt, recordFailedAttempt } from './parse-attempts';

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

export type HistoryAction = 'parse' | 'parse-failed' | 'reparse' | 'edit' | 'verify' | 'unverify' | 'revert';

export interface StatesRow {
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
  /** The endpoint problem when the endpoint refused the request (a failed outcome only). */
  problem?: string | null;
  jobId?: string | null;
}

/**
 * Stores what a parse produced. Edited and verified records are left alone unless `overwriteProtected` (the user
 * chose Replace for this skill); whatever is replaced goes to history. A failed parse never replaces states: it is
 * kept beside them as the skill's failed attempt. Returns false when the record was protected.
 */
export function recordParse(
  db: Db,
  clock: Clock,
  skillId: number,
  parse: ParseRecord,
  overwriteProtected: boolean,
): boolean {
  return db
    .transaction(() => {
      const existing = readRow(db, skillId);
      const before = existing ? toSnapshot(existing) : null;
      if (before && protectedStatuses.includes(before.status) && !overwriteProtected) return false;
      if (parse.outcome === 'failed') {
        recordFailedAttempt(db, clock, skillId, {
          error: parse.error ?? 'The parse failed.',
          problem: parse.problem ?? null,
          rawAnswer: parse.rawAnswer,
          model: parse.model,
          promptVersion: parse.promptVersion,
          sourceHash: parse.sourceHash,
          jobId: parse.jobId ?? null,
          promptTokens: parse.promptTokens,
          completionTokens: parse.completionTokens,
        });
        if (before !== null && before.completion !== null) return true;
      } else clearFailedAttempt(db, skillId);
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
        batch: parse.jobId ?? null,
      });
      return true;
    })
    .immediate();
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

export function writeSnapshot(
  db: Db,
  clock: Clock,
  skillId: number,
  after: StatesSnapshot,
  action: HistoryAction,
  before: StatesSnapshot | null,
  extra: {
    rawAnswer?: string | null;
    promptTokens?: number;
    completionTokens?: number;
    parsed?: boolean;
    /** The bulk change or parse job this write belongs to (see migration 022), so that its Undo finds it. */
    batch?: string | null;
  },
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
  db.prepare(
    'INSERT INTO state_history (skill_id, action, before, after, at, batch) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(
    skillId,
    action,
    before === null ? null : JSON.stringify(before),
    JSON.stringify(after),
    now,
    extra.batch ?? null,
  );
}

export function currentSnapshot(db: Db, skillId: number): StatesSnapshot {
  const row = readRow(db, skillId);
  if (row) return toSnapshot(row);
  if (!db.prepare('SELECT 1 FROM skills WHERE id = ?').get(skillId)) {
    throw new CuratorError('NOT_FOUND', `No skill with id ${skillId}`);
  }
  return emptySnapshot();
}

export function readRow(db: Db, skillId: number): StatesRow | undefined {
  return db.prepare('SELECT * FROM skill_states WHERE skill_id = ?').get(skillId) as StatesRow | undefined;
}

export function toSnapshot(row: StatesRow): StatesSnapshot {
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

export function emptySnapshot(): StatesSnapshot {
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
