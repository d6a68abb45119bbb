// Writes the library's states as the JSONL file `states import` reads ({name, precondition, completion, status} per
// line), so one curator's reviewed states can be shared with another or moved to another library.
import { statusesWithStates, type StatesExportResult, type StatusWithStates } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import { nothingToExport } from '../../shared/states-words';
import { writableTarget, writeNewFile } from '../export/write-new-file';
import type { Db } from '../store/db';
import { suppressionLines } from '../audit/suppressions-file';

export interface StatesExportRequest {
  /** Which skills, by review status; default (or empty): every skill that has states. */
  statuses?: StatusWithStates[];
  /** Write the file here; without it only the content comes back. */
  path?: string;
  /** Replace a file already at `path`. */
  overwrite?: boolean;
}

interface StatesLine {
  name: string;
  precondition: string | null;
  completion: string;
  status: StatusWithStates;
  /** The model that parsed it, on a line still as parsed (the import records it so). */
  model?: string;
}

export async function exportStatesFile(db: Db, req: StatesExportRequest): Promise<StatesExportResult> {
  const statuses = checkedStatuses(req.statuses);
  const lines = readStates(db, statuses);
  const byStatus = countByStatus(lines);
  // The curator's audit judgements travel with the states: every one with the whole file, else those of its skills.
  const suppressions = suppressionLines(
    db,
    statuses.length === statusesWithStates.length ? undefined : new Set(lines.map((l) => l.name)),
  );
  // A file with no line would read as an export that lost everything: nothing is written, and the error says why
  // (after what is wrong with the path, which is said first).
  if (req.path !== undefined && lines.length === 0 && suppressions.length === 0) {
    await writableTarget(req.path, !!req.overwrite);
    throw new CuratorError(
      'NOT_FOUND',
      nothingToExport(statuses, countByStatus(readStates(db, [...statusesWithStates]))),
    );
  }
  // JSON.stringify escapes control characters, so a hostile name stays one inert line of data.
  const content = [...lines, ...suppressions].map((line) => JSON.stringify(line) + '\n').join('');
  const fileName =
    statuses.length === statusesWithStates.length ? 'states.jsonl' : `states-${statuses.join('-')}.jsonl`;
  const counts = { content, fileName, byStatus, suppressions: suppressions.length };
  if (req.path === undefined) return counts;
  const target = await writeNewFile(req.path, content, !!req.overwrite);
  return { ...counts, path: target };
}

function countByStatus(lines: { status: StatusWithStates }[]): Record<StatusWithStates, number> {
  const byStatus: Record<StatusWithStates, number> = { parsed: 0, edited: 0, verified: 0 };
  for (const line of lines) byStatus[line.status]++;
  return byStatus;
}

function checkedStatuses(asked: readonly string[] | undefined): StatusWithStates[] {
  if (asked !== undefined && !Array.isArray(asked))
    throw new CuratorError('INVALID_ARGUMENT', 'statuses must be a list of review statuses');
  if (!asked?.length) return [...statusesWithStates];
  const wrong = asked.filter((s) => !(statusesWithStates as readonly string[]).includes(s));
  if (wrong.length)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Only skills with states can be exported: choose among ${statusesWithStates.join(', ')} (not ${wrong.join(', ')})`,
    );
  // In the canonical order, so the file name does not depend on how the list was typed.
  return statusesWithStates.filter((s) => asked.includes(s));
}

function readStates(db: Db, statuses: StatusWithStates[]): StatesLine[] {
  // A library from before the states table (opened read-only, not upgraded) has no states to export.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'skill_states'").get())
    return [];
  const rows = db
    .prepare(
      `SELECT s.name, st.precondition, st.completion, st.status, st.model FROM skills s
       JOIN skill_states st ON st.skill_id = s.id
       WHERE st.completion IS NOT NULL AND st.status IN (${statuses.map(() => '?').join(',')})
       ORDER BY s.name, s.id`,
    )
    .all(...statuses) as (StatesLine & { model: string | null })[];
  // The import reads a blank precondition as a bad line; a skill that needs nothing has null.
  return rows.map((r) => ({
    name: r.name,
    precondition: r.precondition?.trim() ? r.precondition : null,
    completion: r.completion,
    status: r.status,
    ...(r.status === 'parsed' && r.model ? { model: r.model } : {}),
  }));
}
