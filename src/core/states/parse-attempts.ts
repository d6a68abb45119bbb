// The last failed parse attempt of each skill (parse_attempts): written when a parse yields no states, cleared by the
// next good parse. The states themselves are never touched here.
import type { FailedParseAttempt } from '../../shared/api/llm';
import type { Db } from '../store/db';
import type { Clock } from '../llm/ports';

export interface FailedAttemptRecord {
  error: string;
  problem?: string | null;
  rawAnswer: string | null;
  model: string | null;
  promptVersion?: string | null;
  sourceHash?: string | null;
  jobId?: string | null;
  promptTokens?: number;
  completionTokens?: number;
}

export function recordFailedAttempt(db: Db, clock: Clock, skillId: number, a: FailedAttemptRecord): void {
  db.prepare(
    `INSERT OR REPLACE INTO parse_attempts (skill_id, error, problem, raw_answer, model, prompt_version, source_hash,
       job_id, prompt_tokens, completion_tokens, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    skillId,
    a.error,
    a.problem ?? null,
    a.rawAnswer,
    a.model,
    a.promptVersion ?? null,
    a.sourceHash ?? null,
    a.jobId ?? null,
    a.promptTokens ?? 0,
    a.completionTokens ?? 0,
    clock().toISOString(),
  );
}

export function clearFailedAttempt(db: Db, skillId: number): void {
  db.prepare('DELETE FROM parse_attempts WHERE skill_id = ?').run(skillId);
}

export function getFailedAttempt(db: Db, skillId: number): FailedParseAttempt | null {
  const row = db
    .prepare('SELECT error, problem, raw_answer, model, job_id, at FROM parse_attempts WHERE skill_id = ?')
    .get(skillId) as
    | {
        error: string;
        problem: string | null;
        raw_answer: string | null;
        model: string | null;
        job_id: string | null;
        at: string;
      }
    | undefined;
  if (!row) return null;
  return {
    at: row.at,
    error: row.error,
    problem: row.problem,
    rawAnswer: row.raw_answer,
    model: row.model,
    jobId: row.job_id,
  };
}

/** Skills whose last attempt failed (for "retry failed" selections). */
export const FAILED_ATTEMPT_EXISTS = 'EXISTS (SELECT 1 FROM parse_attempts pa WHERE pa.skill_id = s.id)';
