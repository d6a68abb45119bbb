// The import as the API runs it, minus the junk a failed import used to leave: a source that this import created and
// that ends up holding nothing (no skill, no conflict waiting) is removed again, and an import that found no skill
// folder at all fails with "No SKILL.md found" instead of reporting zeros. An import into a source already there says so.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import { importSource, type ImportOptions } from '../skills/importer';
import type { ImportJob, ImportReport, ImportRequest, LibraryDeps } from '../skills/types';
import type { Db } from '../store/db';

export async function importWithoutJunk(
  deps: LibraryDeps,
  request: ImportRequest,
  job: ImportJob,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const { db } = deps;
  const uri = await fsp.realpath(path.resolve(request.path)).catch(() => null);
  const before =
    uri === null
      ? undefined
      : (db.prepare('SELECT label, last_imported_at FROM sources WHERE uri = ?').get(uri) as
          { label: string; last_imported_at: string | null } | undefined);
  const existed = before !== undefined;
  let report: ImportReport;
  try {
    report = await importSource(deps, request, job, options);
  } catch (error) {
    if (!existed && uri !== null) dropIfEmpty(db, uri);
    throw error;
  }
  if (before && report.sourceUri === uri) {
    report.reimportOf = { label: before.label, lastImportedAt: before.last_imported_at };
  }
  if (existed || report.cancelled) return report;
  const dropped = dropIfEmpty(db, report.sourceUri);
  if (dropped) report.stored = false;
  if (dropped && report.total === 0) {
    throw new CuratorError(
      'NOT_FOUND',
      `No SKILL.md found in ${report.sourceUri}: a skill is a folder with a SKILL.md in it`,
    );
  }
  return report;
}

/** Removes the source at `uri` when it holds no skill and no pending conflict; says whether it did. */
function dropIfEmpty(db: Db, uri: string): boolean {
  const row = db.prepare('SELECT id FROM sources WHERE uri = ?').get(uri) as { id: number } | undefined;
  if (!row) return false;
  const holds = db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM skills WHERE source_id = ?) +
              (SELECT COUNT(*) FROM import_conflicts WHERE source_id = ? AND resolved_at IS NULL) AS n`,
    )
    .get(row.id, row.id) as { n: number };
  if (holds.n > 0) return false;
  db.prepare('DELETE FROM sources WHERE id = ?').run(row.id);
  return true;
}
