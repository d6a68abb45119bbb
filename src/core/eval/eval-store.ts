// eval_runs, eval_recall and eval_results: one run of several variants over a label set, item by item.
import type { EvalStatus, EvalEngines } from '../../shared/api/evaluation';
export type { EvalStatus, EvalEngines };
import { CuratorError } from '../../shared/errors';
import type { SelectionPreset } from '../../shared/presets';
import type { Db } from '../store/db';
import type { Variant } from '../select/trace-types';
import type { TaskMetrics } from './metrics';

export interface EvalRunRequest {
  setId: number;
  variants: Variant[];
  /** k values for the ranked variants. */
  k: number[];
  recallK: number;
  /** The preset the run scored with (absent in runs from before presets were recorded here). */
  preset?: SelectionPreset;
  prune: boolean;
  maxTokens: number;
  llmBodyChars: number;
}

export interface EvalRunRow {
  id: number;
  setId: number;
  jobId: string | null;
  status: EvalStatus;
  request: EvalRunRequest;
  engines: EvalEngines;
  createdAt: string;
  finishedAt: string | null;
}

export interface EvalResultRow {
  itemId: string;
  variant: Variant;
  /** 0 for the stage variants. */
  k: number;
  answer: string[];
  metrics: TaskMetrics;
  selectionRunId: number | null;
  error: string | null;
}

export function createEvalRun(
  db: Db,
  request: EvalRunRequest,
  engines: EvalEngines,
  jobId: string | null,
  now: Date,
): number {
  return Number(
    db
      .prepare(
        'INSERT INTO eval_runs (set_id, job_id, status, request, engines, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        request.setId,
        jobId,
        'running',
        JSON.stringify(request),
        JSON.stringify(engines),
        now.toISOString(),
      ).lastInsertRowid,
  );
}

export function getEvalRun(db: Db, runId: number): EvalRunRow {
  const r = db.prepare('SELECT * FROM eval_runs WHERE id = ?').get(runId) as
    | {
        id: number;
        set_id: number;
        job_id: string | null;
        status: EvalStatus;
        request: string;
        engines: string;
        created_at: string;
        finished_at: string | null;
      }
    | undefined;
  if (!r) throw new CuratorError('NOT_FOUND', `No evaluation run ${runId}`);
  return {
    id: r.id,
    setId: r.set_id,
    jobId: r.job_id,
    status: r.status,
    request: JSON.parse(r.request) as EvalRunRequest,
    engines: JSON.parse(r.engines) as EvalEngines,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  };
}

export function listEvalRuns(
  db: Db,
): { runId: number; setId: number; setName: string; status: EvalStatus; createdAt: string }[] {
  return db
    .prepare(
      `SELECT r.id AS runId, r.set_id AS setId, s.name AS setName, r.status, r.created_at AS createdAt
       FROM eval_runs r JOIN label_sets s ON s.id = r.set_id ORDER BY r.id DESC`,
    )
    .all() as { runId: number; setId: number; setName: string; status: EvalStatus; createdAt: string }[];
}

export function setEvalStatus(db: Db, runId: number, status: EvalStatus, now: Date): void {
  db.prepare('UPDATE eval_runs SET status = ?, finished_at = ? WHERE id = ?').run(
    status,
    status === 'running' ? null : now.toISOString(),
    runId,
  );
}

export function saveRecall(
  db: Db,
  runId: number,
  itemId: string,
  recalled: string[],
  recallAtK: number,
): void {
  db.prepare(
    `INSERT INTO eval_recall (run_id, item_id, recalled, recall_at_k) VALUES (?, ?, ?, ?)
     ON CONFLICT (run_id, item_id) DO UPDATE SET recalled = excluded.recalled, recall_at_k = excluded.recall_at_k`,
  ).run(runId, itemId, JSON.stringify(recalled), recallAtK);
}

export function getRecall(db: Db, runId: number): Map<string, { recalled: string[]; recallAtK: number }> {
  const rows = db
    .prepare('SELECT item_id, recalled, recall_at_k FROM eval_recall WHERE run_id = ?')
    .all(runId) as {
    item_id: string;
    recalled: string;
    recall_at_k: number;
  }[];
  return new Map(
    rows.map((r) => [r.item_id, { recalled: JSON.parse(r.recalled) as string[], recallAtK: r.recall_at_k }]),
  );
}

export function saveResult(db: Db, runId: number, row: EvalResultRow): void {
  db.prepare(
    `INSERT OR REPLACE INTO eval_results (run_id, item_id, variant, k, answer, metrics, selection_run_id, error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    runId,
    row.itemId,
    row.variant,
    row.k,
    JSON.stringify(row.answer),
    JSON.stringify(row.metrics),
    row.selectionRunId,
    row.error,
  );
}

export function getResults(db: Db, runId: number): EvalResultRow[] {
  const rows = db.prepare('SELECT * FROM eval_results WHERE run_id = ?').all(runId) as {
    item_id: string;
    variant: Variant;
    k: number;
    answer: string;
    metrics: string;
    selection_run_id: number | null;
    error: string | null;
  }[];
  return rows.map((r) => ({
    itemId: r.item_id,
    variant: r.variant,
    k: r.k,
    answer: JSON.parse(r.answer) as string[],
    metrics: JSON.parse(r.metrics) as TaskMetrics,
    selectionRunId: r.selection_run_id,
    error: r.error,
  }));
}
