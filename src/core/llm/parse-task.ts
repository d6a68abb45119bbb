// Task parsing on demand (selection lab, evaluation): the cached or hand-typed decomposition when there is one,
// otherwise one LLM call judged by the strict parser.
import type { TaskParse } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import {
  MANUAL,
  findManualTaskParse,
  findTaskParse,
  getTaskParse,
  normaliseTask,
  storeTaskParse,
} from '../states/task-parses';
import { parseTaskAnswer, validateTaskDecomposition, type TaskDecomposition } from './answer-parsers';
import type { Clock, LlmClient, Logger } from './ports';
import { cutOffHint } from './parse-skills';
import { TASK_PARSE_PROMPT_VERSION, buildTaskParseMessages, newBoundary } from './prompts';

export interface ParseTaskDeps {
  db: Db;
  /** Absent when no endpoint is set up: only stored parses can be returned. */
  llm?: LlmClient;
  clock: Clock;
  logger: Logger;
}

export interface ParseTaskRequest {
  task: string;
  /** The actions an agent can take in the library's environment; overrides the one of `sourceId`. */
  environmentNote?: string;
  /** Take the environment note of this source (library) when `environmentNote` is not given. */
  sourceId?: number;
  /** Ask the LLM even when a stored parse (LLM or hand-typed) exists. */
  force?: boolean;
  signal?: AbortSignal;
}

/** The parse parseTask would return without calling the LLM, if there is one. */
export function storedTaskParse(
  deps: Pick<ParseTaskDeps, 'db' | 'llm'>,
  request: Pick<ParseTaskRequest, 'task' | 'environmentNote' | 'sourceId'>,
): TaskParse | undefined {
  const task = requireTask(request.task);
  const note = resolveEnvironmentNote(deps.db, request);
  return deps.llm
    ? (findManualTaskParse(deps.db, task) ??
        findTaskParse(deps.db, {
          task,
          environmentNote: note,
          promptVersion: TASK_PARSE_PROMPT_VERSION,
          model: deps.llm.settings.model,
        }))
    : getTaskParse(deps.db, task, note);
}

export async function parseTask(deps: ParseTaskDeps, request: ParseTaskRequest): Promise<TaskParse> {
  const task = requireTask(request.task);
  const note = resolveEnvironmentNote(deps.db, request);
  if (!request.force) {
    const stored = storedTaskParse(deps, request);
    if (stored) return stored;
  }
  if (!deps.llm) {
    throw new CuratorError(
      'UNAVAILABLE',
      'No LLM endpoint is set up to parse this task; type its sub-tasks and states by hand instead.',
    );
  }
  const model = deps.llm.settings.model;
  const answer = await deps.llm.complete(buildTaskParseMessages(task, note, newBoundary()), {
    signal: request.signal,
  });
  const answerParse = parseTaskAnswer(answer.text);
  const parsed =
    !answerParse.ok && answer.finishReason === 'length'
      ? { ok: false as const, error: `${answerParse.error} ${cutOffHint(deps.llm)}` }
      : answerParse;
  storeTaskParse(deps.db, deps.clock, {
    task,
    environmentNote: note,
    promptVersion: TASK_PARSE_PROMPT_VERSION,
    model,
    outcome: parsed.ok ? 'parsed' : 'failed',
    decomposition: parsed.ok ? parsed.value : null,
    rawAnswer: answer.text,
    error: parsed.ok ? null : parsed.error,
    promptTokens: answer.usage.promptTokens,
    completionTokens: answer.usage.completionTokens,
  });
  if (!parsed.ok) {
    deps.logger.warn('Task parse failed', { reason: parsed.error });
    throw new CuratorError(
      'LLM_ERROR',
      `The model's answer is not in the "Subtask i:" / "State i:" format: ${parsed.error}`,
      {
        raw: answer.text,
        reason: parsed.error,
      },
    );
  }
  return {
    task,
    ...parsed.value,
    source: 'llm',
    cached: false,
    model,
    promptVersion: TASK_PARSE_PROMPT_VERSION,
    raw: answer.text,
  };
}

export interface ManualTaskParseRequest {
  task: string;
  environmentNote?: string;
  sourceId?: number;
  /** Either the lists ... */
  subtasks?: string[];
  states?: string[];
  /** ... or text in the answer format ("Subtask 1: …" lines, then "State 1: …" lines). */
  text?: string;
}

/** Stores a decomposition typed by hand; it is used in preference to any LLM parse of the same task. */
export function saveManualTaskParse(
  deps: { db: Db; clock: Clock },
  request: ManualTaskParseRequest,
): TaskParse {
  const task = requireTask(request.task);
  const note = resolveEnvironmentNote(deps.db, request);
  const checked =
    request.text !== undefined
      ? parseTaskAnswer(request.text)
      : validateTaskDecomposition({ subtasks: request.subtasks, states: request.states });
  if (!checked.ok)
    throw new CuratorError('INVALID_ARGUMENT', `The typed parse is not valid: ${checked.error}`);
  const decomposition: TaskDecomposition = checked.value;
  storeTaskParse(deps.db, deps.clock, {
    task,
    environmentNote: note,
    promptVersion: MANUAL,
    model: MANUAL,
    outcome: 'manual',
    decomposition,
    rawAnswer: null,
    error: null,
    promptTokens: 0,
    completionTokens: 0,
  });
  return { task, ...decomposition, source: 'manual', cached: false };
}

function requireTask(task: string): string {
  const text = normaliseTask(task ?? '');
  if (!text) throw new CuratorError('INVALID_ARGUMENT', 'The task is empty');
  return text;
}

function resolveEnvironmentNote(
  db: Db,
  request: { environmentNote?: string; sourceId?: number },
): string | undefined {
  if (request.environmentNote !== undefined) return request.environmentNote.trim() || undefined;
  if (request.sourceId === undefined) return undefined;
  const row = db.prepare('SELECT environment_note FROM sources WHERE id = ?').get(request.sourceId) as
    { environment_note: string | null } | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No source with id ${request.sourceId}`);
  return row.environment_note?.trim() || undefined;
}
