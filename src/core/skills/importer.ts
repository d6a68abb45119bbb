// Imports one source into the library as a job: each skill in its own transaction, progress after each, cancel between
// skills. Re-importing a source updates what changed and removes what the source no longer has.
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { CuratorError } from '../../shared/errors';
import { dropPendingAt, pendingConflictPlaces } from '../store/conflicts-repo';
import { deleteSkill, skillsOfSource } from '../store/skills-repo';
import { insertImportReport, markImported, upsertSource } from '../store/sources-repo';
import { placeSkill } from './place-skill';
import type { BuildResult } from './skill-md';
import type { SourceItem } from './sources/source';
import { checkSourcePath, detectSourceKind, openSource } from './sources/open-source';
import {
  defaultImportSettings,
  type ImportJob,
  type ImportSettings,
  type ImportReport,
  type ImportRequest,
  type LibraryDeps,
  type OnConflict,
} from './types';

const onConflictChoices = ['record', 'keep-both', 'replace', 'skip'];

export interface ImportOptions {
  /** Size caps and validation policy; missing ones take defaultImportSettings. */
  settings?: Partial<ImportSettings>;
}

export async function importSource(
  deps: LibraryDeps,
  request: ImportRequest,
  job: ImportJob,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const { db, clock, logger } = deps;
  const limits = { ...defaultImportSettings, ...options.settings };
  if (!request.path) throw new CuratorError('INVALID_ARGUMENT', 'An import needs a path');
  const absolute = path.resolve(request.path);
  const kind = request.kind ?? (await detectSourceKind(absolute));
  await checkSourcePath(kind, absolute);
  const onConflict = request.onConflict ?? 'record';
  if (!onConflictChoices.includes(onConflict)) {
    throw new CuratorError('INVALID_ARGUMENT', `onConflict must be one of ${onConflictChoices.join(', ')}`);
  }
  const uri = await fsp.realpath(absolute).catch(() => {
    throw new CuratorError('NOT_FOUND', `Nothing to import at ${absolute} (it vanished)`);
  });
  const source = upsertSource(
    db,
    kind,
    uri,
    request.label ?? null,
    path.basename(uri),
    clock().toISOString(),
  );
  const report: ImportReport = {
    sourceId: source.id,
    sourceUri: uri,
    kind,
    total: 0,
    added: [],
    updated: [],
    unchanged: [],
    removed: [],
    duplicates: [],
    rejected: [],
    warnings: [],
    conflicts: [],
    cancelled: false,
  };
  job.report({ done: 0, total: 0, message: `Reading ${uri}` });
  let opened;
  try {
    opened = await openSource(kind, uri, limits, job.signal, {
      onFolder: (folders, rel) =>
        job.report({ done: 0, total: 0, message: `Reading ${rel || uri} (${folders} folders so far)` }),
    });
  } catch (error) {
    if (job.signal.aborted) return finish(deps, report, job, true);
    // The job fails with this error, and the report says the same where reports are read.
    report.rejected.push({
      relPath: '',
      file: path.basename(uri),
      issues: [
        {
          severity: 'error',
          rule: 'source-unreadable',
          message: (error as Error).message,
          file: path.basename(uri),
        },
      ],
    });
    finish(deps, report, job, false);
    throw error;
  }
  const seen = new Set<string>();
  const started = clock().getTime();
  const { items } = opened;
  report.total = items.length;
  try {
    for (const [index, item] of items.entries()) {
      if (job.signal.aborted) {
        report.cancelled = true;
        break;
      }
      seen.add(item.relPath);
      if ((await importItem(deps, source.id, item, onConflict, report, job.signal)) === 'cancelled') {
        report.cancelled = true;
        break;
      }
      const done = index + 1;
      const elapsed = (clock().getTime() - started) / 1000;
      job.report({
        done,
        total: items.length,
        failed: report.rejected.length,
        message: item.relPath || item.file,
        etaSeconds: Math.round((elapsed / done) * (items.length - done)),
      });
      // Let the host answer requests between skills: loading a JSONL line never waits on I/O by itself.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    await opened.close();
  }
  // Only a complete listing of the source can say what it no longer has.
  if (!report.cancelled && opened.complete !== false) removeMissing(deps, report, seen);
  if (!report.cancelled) markImported(db, source.id, clock().toISOString());
  logger.info('import finished', {
    source: uri,
    added: report.added.length,
    updated: report.updated.length,
    unchanged: report.unchanged.length,
    removed: report.removed.length,
    rejected: report.rejected.length,
    conflicts: report.conflicts.length,
    cancelled: report.cancelled,
  });
  return finish(deps, report, job, report.cancelled);
}

/**
 * Loads, validates and writes one skill. Whatever goes wrong with it (a file that vanished, a package the library
 * cannot store) rejects that skill only; its transaction leaves the library as it was.
 */
async function importItem(
  deps: LibraryDeps,
  sourceId: number,
  item: SourceItem,
  onConflict: OnConflict,
  report: ImportReport,
  signal: AbortSignal,
): Promise<'cancelled' | void> {
  const { db, clock } = deps;
  const reject = (rule: string, message: string) =>
    report.rejected.push({
      relPath: item.relPath,
      file: item.file,
      issues: [{ severity: 'error', rule, message, file: item.file }],
    });
  if (item.type === 'rejection') {
    report.rejected.push({ relPath: item.relPath, file: item.file, issues: item.issues });
    return;
  }
  let loaded: BuildResult;
  try {
    loaded = await item.load();
  } catch (error) {
    // An abort while reading ends the import as cancelled, not as a rejected skill.
    if (signal.aborted) return 'cancelled';
    return void reject('unreadable', `cannot read the package: ${(error as Error).message}`);
  }
  if (!loaded.ok) {
    report.rejected.push({ relPath: item.relPath, file: item.file, issues: loaded.issues });
    return;
  }
  const skill = loaded.skill;
  const ref = { name: skill.name, relPath: skill.relPath };
  let placed;
  try {
    placed = db
      .transaction(() => placeSkill(db, sourceId, skill, onConflict, clock().toISOString()))
      .immediate();
  } catch (error) {
    deps.logger.warn('a skill could not be stored', { relPath: item.relPath, error: String(error) });
    return void reject('store-failed', `the library could not store this skill: ${(error as Error).message}`);
  }
  if (skill.warnings.length > 0) report.warnings.push({ ...ref, issues: skill.warnings });
  if (placed.kind === 'duplicate')
    report.duplicates.push({ ...ref, existingSkillId: placed.existingSkillId });
  else if (placed.kind === 'conflict') {
    report.conflicts.push({ ...ref, id: placed.conflictId, existingSkillId: placed.existingSkillId });
    if (placed.written) report[placed.written].push(ref);
  } else report[placed.kind].push(ref);
}

function removeMissing(deps: LibraryDeps, report: ImportReport, seen: Set<string>): void {
  const { db } = deps;
  for (const row of skillsOfSource(db, report.sourceId)) {
    if (seen.has(row.relPath)) continue;
    try {
      db.transaction(() => deleteSkill(db, row.id)).immediate();
      report.removed.push({ name: row.name, relPath: row.relPath });
    } catch (error) {
      // The skill stays; the report (stored below) still says what was done.
      deps.logger.warn('a skill the source no longer has could not be removed', {
        relPath: row.relPath,
        error: String(error),
      });
    }
  }
  for (const c of pendingConflictPlaces(db, report.sourceId)) {
    if (!seen.has(c.relPath)) dropPendingAt(db, report.sourceId, c.relPath);
  }
}

function finish(deps: LibraryDeps, report: ImportReport, job: ImportJob, cancelled: boolean): ImportReport {
  report.cancelled = cancelled;
  insertImportReport(deps.db, report, job.id ?? null, deps.clock().toISOString());
  return report;
}
