// Import sources (one row per folder, zip, file or dump, unique by its absolute path) and the reports of their imports.
import { reportJsonBytes } from './report-json';
import type { ImportReport, SourceKind } from '../skills/types';
import type { Db } from './db';
import { stmt } from './statements';

export interface SourceRow {
  id: number;
  kind: SourceKind;
  uri: string;
  label: string;
  /** The actions an agent can take where these skills run; the task-parsing prompt includes it. */
  environmentNote: string | null;
  createdAt: string;
  lastImportedAt: string | null;
}

const sourceColumns =
  'id, kind, uri, label, environment_note AS environmentNote, created_at AS createdAt, last_imported_at AS lastImportedAt';

/** The source row for a path, created on first import; a given label replaces the old one, no label keeps it. */
export function upsertSource(
  db: Db,
  kind: SourceKind,
  uri: string,
  label: string | null,
  defaultLabel: string,
  now: string,
): SourceRow {
  db.prepare(
    `INSERT INTO sources (kind, uri, label, created_at) VALUES (?, ?, COALESCE(?, ?), ?)
     ON CONFLICT(uri) DO UPDATE SET kind = excluded.kind, label = COALESCE(?, label)`,
  ).run(kind, uri, label, defaultLabel, now, label);
  return db.prepare(`SELECT ${sourceColumns} FROM sources WHERE uri = ?`).get(uri) as SourceRow;
}

export function findSource(db: Db, id: number): SourceRow | undefined {
  return db.prepare(`SELECT ${sourceColumns} FROM sources WHERE id = ?`).get(id) as SourceRow | undefined;
}

export function setSourceNote(db: Db, id: number, note: string | null): boolean {
  return db.prepare('UPDATE sources SET environment_note = ? WHERE id = ?').run(note, id).changes > 0;
}

export function markImported(db: Db, id: number, now: string): void {
  db.prepare('UPDATE sources SET last_imported_at = ? WHERE id = ?').run(now, id);
}

export function allSources(db: Db): SourceRow[] {
  return db.prepare(`SELECT ${sourceColumns} FROM sources ORDER BY id`).all() as SourceRow[];
}

const reportsKept = 20;

export function insertImportReport(db: Db, report: ImportReport, jobId: string | null, now: string): number {
  const info = db
    .prepare(
      // The JSON's UTF-8 bytes, stored as TEXT (what JSON.stringify gave before): see report-json.ts.
      'INSERT INTO import_reports (source_id, job_id, report, counts, created_at) VALUES (?, ?, CAST(? AS TEXT), ?, ?)',
    )
    .run(report.sourceId, jobId, reportJsonBytes(report), JSON.stringify(countsOf(report)), now);
  // Reports list every skill; a source re-imported daily would otherwise grow the file without bound.
  db.prepare(
    'DELETE FROM import_reports WHERE source_id = ? AND id NOT IN (SELECT id FROM import_reports WHERE source_id = ? ORDER BY id DESC LIMIT ?)',
  ).run(report.sourceId, report.sourceId, reportsKept);
  return Number(info.lastInsertRowid);
}

export function latestImportReport(db: Db, sourceId: number): ImportReport | undefined {
  const row = db
    .prepare('SELECT report FROM import_reports WHERE source_id = ? ORDER BY id DESC LIMIT 1')
    .get(sourceId) as { report: string } | undefined;
  return row ? (JSON.parse(row.report) as ImportReport) : undefined;
}

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  rejected: number;
  duplicates: number;
  cancelled: boolean;
}

function countsOf(r: ImportReport): ImportCounts {
  return {
    added: r.added.length,
    updated: r.updated.length,
    unchanged: r.unchanged.length,
    removed: r.removed.length,
    rejected: r.rejected.length,
    duplicates: r.duplicates?.length ?? 0,
    cancelled: r.cancelled,
  };
}

/** The counts of a source's latest import, read from their own small column (the report lists every skill). */
export function latestImportCounts(db: Db, sourceId: number): ImportCounts | undefined {
  const row = stmt(db, 'SELECT counts FROM import_reports WHERE source_id = ? ORDER BY id DESC LIMIT 1').get(
    sourceId,
  ) as { counts: string | null } | undefined;
  return row?.counts ? (JSON.parse(row.counts) as ImportCounts) : undefined;
}
