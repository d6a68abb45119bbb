// selection_runs: every trace is stored with its run, to be shown, compared and replayed.
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { packText } from '../store/text-packing';
import { TRACE_VERSION, type SelectionTrace, type Variant } from './trace-types';

export type RunOrigin = 'lab' | 'replay' | 'eval';
/** The host that asked for the run, when not the app or the CLI: 'mcp' is an agent over the MCP server. */
export type RunVia = 'mcp';

export interface StoredRun {
  runId: number;
  task: string;
  variant: Variant;
  k: number | null;
  answer: string[];
  origin: RunOrigin;
  parentRunId: number | null;
  via: RunVia | null;
  createdAt: string;
}

interface Row {
  id: number;
  task: string;
  variant: string;
  k: number | null;
  answer: string;
  origin: RunOrigin;
  parent_run_id: number | null;
  via: RunVia | null;
  created_at: string;
}

/** Everything but the trace (stored packed: text-packing.ts), which a list does not need. */
const summaryColumns = 'id, task, variant, k, answer, origin, parent_run_id, via, created_at';

const summary = (r: Row): StoredRun => ({
  runId: r.id,
  task: r.task,
  variant: r.variant as Variant,
  k: r.k,
  answer: JSON.parse(r.answer) as string[],
  origin: r.origin,
  parentRunId: r.parent_run_id,
  via: r.via ?? null,
  createdAt: r.created_at,
});

export function saveRun(
  db: Db,
  trace: SelectionTrace,
  origin: RunOrigin,
  now: Date,
  parentRunId: number | null = null,
  via: RunVia | null = null,
): number {
  const info = db
    .prepare(
      `INSERT INTO selection_runs (task, variant, k, answer, trace_version, trace, origin, parent_run_id, via, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      trace.task,
      trace.variant,
      trace.k,
      JSON.stringify(trace.answer.map((a) => a.name)),
      trace.traceVersion,
      packText(JSON.stringify(trace)),
      origin,
      parentRunId,
      via,
      now.toISOString(),
    );
  return Number(info.lastInsertRowid);
}

export function getRun(db: Db, runId: number): StoredRun & { trace: SelectionTrace } {
  const row = db
    .prepare(
      `SELECT ${summaryColumns}, trace_version, unpack_text(trace) AS trace FROM selection_runs WHERE id = ?`,
    )
    .get(runId) as (Row & { trace: string; trace_version: number }) | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No selection run ${runId}`);
  if (row.trace_version !== TRACE_VERSION)
    throw new CuratorError(
      'VALIDATION_FAILED',
      `Run ${runId} has trace version ${row.trace_version}; this build reads ${TRACE_VERSION}`,
    );
  return { ...summary(row), trace: JSON.parse(row.trace) as SelectionTrace };
}

/** The newest runs; `evaluations: false` leaves out the runs an evaluation stored (one per task and variant). */
export function listRuns(db: Db, limit = 50, options: { evaluations?: boolean } = {}): StoredRun[] {
  const rows = (
    options.evaluations === false
      ? db
          .prepare(
            `SELECT ${summaryColumns} FROM selection_runs WHERE origin != 'eval' ORDER BY id DESC LIMIT ?`,
          )
          .all(limit)
      : db.prepare(`SELECT ${summaryColumns} FROM selection_runs ORDER BY id DESC LIMIT ?`).all(limit)
  ) as Row[];
  return rows.map(summary);
}
