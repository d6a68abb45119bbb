// The reports of imports: one row per import (its head: source, kind, total, whether it was cancelled, the counts)
// and each line of its lists as a row of import_report_entries, appended as the import writes. Rows from before
// migration 007 hold their whole report as JSON in `report` and have no entries: both read the same.
import { importLists, type ImportListCounts, type ImportListName } from '../../shared/api';
import type { ImportReport } from '../skills/types';
import type { Db } from './db';
import { stmt } from './statements';

/** Reports kept per source: a source re-imported daily would otherwise grow the file without bound. */
const reportsKept = 20;

export type ReportLine<L extends ImportListName> = NonNullable<ImportReport[L]>[number];

/**
 * Opens the report of an import that starts now: its lines are appended as the import writes them (in the same
 * transactions), and `closeReport` ends it. Until then the report is not the source's latest.
 */
export function openReport(db: Db, sourceId: number, jobId: string | null, now: string): number {
  const info = db
    .prepare(
      "INSERT INTO import_reports (source_id, job_id, report, counts, created_at) VALUES (?, ?, '{}', NULL, ?)",
    )
    .run(sourceId, jobId, now);
  return Number(info.lastInsertRowid);
}

export function appendReportLine<L extends ImportListName>(
  db: Db,
  reportId: number,
  list: L,
  line: ReportLine<L>,
): void {
  stmt(db, 'INSERT INTO import_report_entries (report_id, list, entry) VALUES (?, ?, ?)').run(
    reportId,
    list,
    JSON.stringify(line),
  );
}

/**
 * Ends a report: its head (the report without its lines: they are rows) and counts are written, and the source keeps
 * its last reports only. Reports of imports that never ended (the process died) and came before this one go too.
 */
export function closeReport(db: Db, reportId: number, report: ImportReport, counts: ImportListCounts): void {
  const head: Partial<ImportReport> = { ...report, counts };
  for (const list of importLists) head[list] = [];
  delete head.shownAtMost;
  db.transaction(() => {
    stmt(db, 'UPDATE import_reports SET report = ?, counts = ? WHERE id = ?').run(
      JSON.stringify(head),
      JSON.stringify({ ...counts, cancelled: report.cancelled }),
      reportId,
    );
    stmt(
      db,
      `DELETE FROM import_reports WHERE source_id = ? AND (
         (counts IS NULL AND id < ?) OR
         (counts IS NOT NULL AND id NOT IN
           (SELECT id FROM import_reports WHERE source_id = ? AND counts IS NOT NULL ORDER BY id DESC LIMIT ?)))`,
    ).run(report.sourceId, reportId, report.sourceId, reportsKept);
  })();
}

/** Stores a report held whole in memory (a small one: an update applied from a source). */
export function insertImportReport(db: Db, report: ImportReport, jobId: string | null, now: string): number {
  return db.transaction(() => {
    const id = openReport(db, report.sourceId, jobId, now);
    const counts = {} as ImportListCounts;
    for (const list of importLists) {
      const lines = report[list] ?? [];
      counts[list] = lines.length;
      for (const line of lines) appendReportLine(db, id, list, line);
    }
    closeReport(db, id, report, counts);
    return id;
  })();
}

/**
 * The latest finished import's report of a source, each conflict with how it was resolved since. With `shown`, each
 * list holds its first `shown` lines and `shownAtMost` says so where a list has more; `counts` is always whole.
 */
export function latestImportReport(db: Db, sourceId: number, shown?: number): ImportReport | undefined {
  const row = stmt(
    db,
    'SELECT id, report FROM import_reports WHERE source_id = ? AND counts IS NOT NULL ORDER BY id DESC LIMIT 1',
  ).get(sourceId) as { id: number; report: string } | undefined;
  if (!row) return undefined;
  const report = JSON.parse(row.report) as ImportReport;
  const counts = report.counts ?? countsOfLists(report);
  for (const list of importLists) {
    const listed = (report[list] ?? []) as unknown[];
    if (shown !== undefined && listed.length > shown) listed.length = shown;
    const rows = stmt(
      db,
      `SELECT entry FROM import_report_entries WHERE report_id = ? AND list = ? ORDER BY rowid LIMIT ?`,
    )
      .pluck()
      .iterate(row.id, list, shown ?? -1) as IterableIterator<string>;
    for (const entry of rows) listed.push(JSON.parse(entry));
    (report as unknown as Record<string, unknown[]>)[list] = listed;
  }
  const resolutionOf = stmt(db, 'SELECT resolution FROM import_conflicts WHERE id = ?').pluck();
  for (const conflict of report.conflicts) {
    const resolution = resolutionOf.get(conflict.id) as
      ImportReport['conflicts'][number]['resolution'] | null;
    if (resolution) conflict.resolution = resolution;
  }
  report.counts = counts;
  if (shown !== undefined && importLists.some((list) => counts[list] > shown)) report.shownAtMost = shown;
  else delete report.shownAtMost;
  return report;
}

function countsOfLists(report: ImportReport): ImportListCounts {
  return Object.fromEntries(importLists.map((list) => [list, report[list]?.length ?? 0])) as ImportListCounts;
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

/** The counts of a source's latest import, read from their own small column (the report lists every skill). */
export function latestImportCounts(db: Db, sourceId: number): ImportCounts | undefined {
  const row = stmt(
    db,
    'SELECT counts FROM import_reports WHERE source_id = ? AND counts IS NOT NULL ORDER BY id DESC LIMIT 1',
  ).get(sourceId) as { counts: string } | undefined;
  return row ? (JSON.parse(row.counts) as ImportCounts) : undefined;
}
