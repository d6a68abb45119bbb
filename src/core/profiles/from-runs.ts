// The skills a stored selection run, or an evaluation run, answered: the seeds of a profile made from a tested answer.
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';

interface AnswerEntry {
  name: string;
  skillId: number | null;
}

/** The skill an answer named: its recorded id while that skill exists, else the newest skill of that name. */
function resolveAnswer(db: Db, entries: readonly AnswerEntry[]): { ids: number[]; unknown: string[] } {
  const exists = db.prepare('SELECT 1 FROM skills WHERE id = ?').pluck();
  const byName = db
    .prepare('SELECT id FROM skills WHERE name = ? ORDER BY updated_at DESC, id DESC LIMIT 1')
    .pluck();
  const ids = new Set<number>();
  const unknown = new Set<string>();
  for (const e of entries) {
    const id =
      e.skillId !== null && exists.get(e.skillId) !== undefined
        ? e.skillId
        : (byName.get(e.name) as number | undefined);
    if (id === undefined) unknown.add(e.name);
    else ids.add(id);
  }
  return { ids: [...ids], unknown: [...unknown] };
}

function answerOfTrace(trace: string, names: string[]): AnswerEntry[] {
  try {
    const parsed = JSON.parse(trace) as { answer?: { name?: unknown; skillId?: unknown }[] };
    if (Array.isArray(parsed.answer))
      return parsed.answer.map((a) => ({
        name: String(a.name),
        skillId: typeof a.skillId === 'number' ? a.skillId : null,
      }));
  } catch {
    // An unreadable trace still has its answer's names.
  }
  return names.map((name) => ({ name, skillId: null }));
}

export function skillIdsOfSelectionRun(db: Db, runId: number): { ids: number[]; unknown: string[] } {
  const row = db
    .prepare('SELECT answer, unpack_text(trace) AS trace FROM selection_runs WHERE id = ?')
    .get(runId) as { answer: string; trace: string } | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No selection run ${runId}`);
  return resolveAnswer(db, answerOfTrace(row.trace, JSON.parse(row.answer) as string[]));
}

export function skillIdsOfEvalRun(
  db: Db,
  runId: number,
  only: { variant?: string; k?: number } = {},
): { ids: number[]; unknown: string[] } {
  if (db.prepare('SELECT 1 FROM eval_runs WHERE id = ?').get(runId) === undefined)
    throw new CuratorError('NOT_FOUND', `No evaluation run ${runId}`);
  const rows = db
    .prepare(
      `SELECT r.answer, r.variant, r.k, unpack_text(sr.trace) AS trace FROM eval_results r
       LEFT JOIN selection_runs sr ON sr.id = r.selection_run_id
       WHERE r.run_id = ? AND r.error IS NULL ORDER BY r.item_id`,
    )
    .all(runId) as { answer: string; variant: string; k: number; trace: string | null }[];
  const kept = rows.filter(
    (r) =>
      (only.variant === undefined || r.variant === only.variant) && (only.k === undefined || r.k === only.k),
  );
  if (kept.length === 0)
    throw new CuratorError(
      'NOT_FOUND',
      `Evaluation run ${runId} has no answers${only.variant ? ` for variant ${only.variant}` : ''}${only.k !== undefined ? ` at k=${only.k}` : ''}`,
    );
  const entries = kept.flatMap((r) => {
    const names = JSON.parse(r.answer) as string[];
    return r.trace === null ? names.map((name) => ({ name, skillId: null })) : answerOfTrace(r.trace, names);
  });
  return resolveAnswer(db, entries);
}
