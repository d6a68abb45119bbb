// Stored task decompositions: LLM parses cached by (task text + environment note, prompt version, model), and
// parses typed by hand, which take precedence so the selection engine runs without any LLM.
import { createHash } from 'node:crypto';
import type { TaskParse } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import type { Clock } from '../llm/ports';
import type { TaskDecomposition } from '../llm/answer-parsers';

export const MANUAL = 'manual';

/** The task as it is hashed and stored: surrounding whitespace does not make a different task. */
export function normaliseTask(task: string): string {
  return task.replace(/\s+/g, ' ').trim();
}

export function taskHash(task: string, environmentNote: string | undefined): string {
  // The NUL separator keeps ("ab", "c") and ("a", "bc") apart.
  return createHash('sha256')
    .update(`${normaliseTask(task)}\u0000${environmentNote?.trim() ?? ''}`)
    .digest('hex');
}

export function taskCacheKey(hash: string, promptVersion: string, model: string): string {
  return `${hash}|${promptVersion}|${model}`;
}

interface TaskParseRow {
  task: string;
  prompt_version: string;
  model: string;
  status: 'parsed' | 'failed' | 'manual';
  subtasks: string | null;
  states: string | null;
  raw_answer: string | null;
  error: string | null;
}

export interface TaskParseRecord {
  task: string;
  environmentNote: string | undefined;
  promptVersion: string;
  model: string;
  outcome: 'parsed' | 'failed' | 'manual';
  decomposition: TaskDecomposition | null;
  rawAnswer: string | null;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
}

export function storeTaskParse(db: Db, clock: Clock, record: TaskParseRecord): void {
  if ((record.outcome === 'failed') !== (record.decomposition === null)) {
    throw new CuratorError('INTERNAL', 'A failed task parse has no decomposition, and only a failed one');
  }
  // A hand-typed parse belongs to the task text alone: the environment note only steers the LLM.
  const hash = taskHash(record.task, record.outcome === 'manual' ? undefined : record.environmentNote);
  const now = clock().toISOString();
  db.prepare(
    `INSERT INTO task_parses (cache_key, task_hash, task, environment_note, prompt_version, model, status, subtasks,
       states, raw_answer, error, prompt_tokens, completion_tokens, created_at, updated_at)
     VALUES (@key, @hash, @task, @note, @promptVersion, @model, @status, @subtasks, @states, @raw, @error,
       @promptTokens, @completionTokens, @now, @now)
     ON CONFLICT (cache_key) DO UPDATE SET status = excluded.status, subtasks = excluded.subtasks,
       states = excluded.states, raw_answer = excluded.raw_answer, error = excluded.error,
       prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
       updated_at = excluded.updated_at
     -- A failed attempt never replaces a good parse of the same task (the caller gets the failure as an error).
     WHERE excluded.status != 'failed' OR task_parses.status = 'failed'`,
  ).run({
    key: taskCacheKey(hash, record.promptVersion, record.model),
    hash,
    task: normaliseTask(record.task),
    note: record.environmentNote?.trim() || null,
    promptVersion: record.promptVersion,
    model: record.model,
    status: record.outcome,
    subtasks: record.decomposition ? JSON.stringify(record.decomposition.subtasks) : null,
    states: record.decomposition ? JSON.stringify(record.decomposition.states) : null,
    raw: record.rawAnswer,
    error: record.error,
    promptTokens: record.promptTokens,
    completionTokens: record.completionTokens,
    now,
  });
}

/** The usable parse for exactly this prompt version and model, if one is stored. */
export function findTaskParse(
  db: Db,
  key: { task: string; environmentNote?: string; promptVersion: string; model: string },
): TaskParse | undefined {
  const row = db
    .prepare("SELECT * FROM task_parses WHERE cache_key = ? AND status != 'failed'")
    .get(taskCacheKey(taskHash(key.task, key.environmentNote), key.promptVersion, key.model)) as
    TaskParseRow | undefined;
  return row && toTaskParse(row);
}

/** The hand-typed parse of a task, whatever the environment note. */
export function findManualTaskParse(db: Db, task: string): TaskParse | undefined {
  return findTaskParse(db, { task, promptVersion: MANUAL, model: MANUAL });
}

/**
 * What the selection engine uses when it must not call an LLM: the hand-typed parse if there is one, else the most
 * recent LLM parse of the task with this environment note (any model or prompt version), else the parse a label set
 * gives a task with exactly this text (the demo task's, among the sample labels).
 */
export function getTaskParse(db: Db, task: string, environmentNote?: string): TaskParse | undefined {
  const manual = findManualTaskParse(db, task);
  if (manual) return manual;
  const row = db
    .prepare(
      `SELECT * FROM task_parses WHERE task_hash = ? AND status = 'parsed' ORDER BY updated_at DESC, id DESC LIMIT 1`,
    )
    .get(taskHash(task, environmentNote)) as TaskParseRow | undefined;
  return row ? toTaskParse(row) : labelTaskParse(db, task);
}

/** The hand-typed parse of a labelled task with exactly this text (the first label set that has one). */
function labelTaskParse(db: Db, task: string): TaskParse | undefined {
  const text = db
    .prepare(
      'SELECT parse FROM label_items WHERE task = ? AND parse IS NOT NULL ORDER BY set_id, position LIMIT 1',
    )
    .pluck()
    .get(task.trim()) as string | undefined;
  if (text === undefined) return undefined;
  try {
    const parse = JSON.parse(text) as { subtasks?: unknown; states?: unknown };
    const strings = (xs: unknown) => Array.isArray(xs) && xs.every((x) => typeof x === 'string');
    if (!strings(parse.subtasks) || !strings(parse.states)) return undefined;
    return {
      task: task.trim(),
      subtasks: parse.subtasks as string[],
      states: parse.states as string[],
      source: 'label',
      cached: true,
    };
  } catch {
    return undefined;
  }
}

/** Removes the hand-typed parse of a task; its LLM parses stay. Returns whether there was one. */
export function deleteManualTaskParse(db: Db, task: string): boolean {
  const key = taskCacheKey(taskHash(task, undefined), MANUAL, MANUAL);
  return db.prepare('DELETE FROM task_parses WHERE cache_key = ?').run(key).changes > 0;
}

function toTaskParse(row: TaskParseRow): TaskParse {
  const parse: TaskParse = {
    task: row.task,
    subtasks: JSON.parse(row.subtasks ?? '[]') as string[],
    states: JSON.parse(row.states ?? '[]') as string[],
    source: row.status === 'manual' ? 'manual' : 'llm',
    cached: true,
  };
  if (row.status !== 'manual') {
    parse.model = row.model;
    parse.promptVersion = row.prompt_version;
    if (row.raw_answer !== null) parse.raw = row.raw_answer;
  }
  return parse;
}
