// The library part of the API: import (a job), browse, search, conflicts.
import { stat } from 'node:fs/promises';
import type { ImportReport as ApiImportReport, LibraryApi } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { auditSkills } from '../audit/audit-runner';
import { staleSkillIds } from '../audit/audit-store';
import { skillFileText } from '../export/skill-file-text';
import { missingPathError } from '../missing-path';
import { searchSkills } from '../search/hybrid';
import { importWithoutJunk } from '../sources/import-without-junk';
import type { ImportRequest, LibraryDeps } from '../skills';
import {
  fileTypeName,
  getConflict,
  getSkill,
  getSkillByName,
  latestImportReport,
  libraryStats,
  listConflicts,
  listSkills,
  listSources,
  resolveConflict,
  resolveConflicts,
  setEnvironmentNote,
} from '../skills';

export const IMPORT_JOB = 'library.import';

/** The audit of what an import added or changed (the source's skills whose audit is missing or stale). */
async function auditImported(
  ctx: CoreContext,
  sourceId: number,
  job: { signal: AbortSignal; report: (p: { done: number; total: number; message?: string }) => void },
): Promise<NonNullable<ApiImportReport['audit']>> {
  const profile = ctx.settings.get().audit.specProfile;
  const ids = staleSkillIds(ctx.db, profile, sourceId);
  // No progress of its own: the import's counts (failures among them) stay what the job reports.
  const r = await auditSkills(ctx, ids, profile, { signal: job.signal });
  return {
    audited: r.audited,
    findings: r.findings,
    flagged: r.flagged.slice(0, 50) as { skillId: number; name: string; worst: 'high' | 'critical' }[],
    flaggedCount: r.flagged.length,
  };
}

export function createLibraryService(ctx: CoreContext): LibraryApi {
  const deps: LibraryDeps = { db: ctx.db, clock: ctx.clock, logger: ctx.logger };
  const changed = (reason: string) => ctx.events.emit({ type: 'library.changed', reason });

  // A resumed import runs the whole source again: unchanged skills are recognised by hash, so nothing is redone.
  ctx.jobs.register<ImportRequest>(IMPORT_JOB, async (request, job) => {
    try {
      const report = await importWithoutJunk(
        deps,
        request,
        { signal: job.signal, report: job.report, id: job.jobId },
        {
          settings: ctx.settings.get().import,
        },
      );
      if (report.cancelled || report.stored === false || ctx.db.readonly) return report;
      return { ...report, audit: await auditImported(ctx, report.sourceId, job) };
    } finally {
      changed('import');
    }
  });

  return {
    'library.import': async (req) => {
      if (!req || typeof req.path !== 'string' || req.path.trim() === '') {
        throw new CuratorError(
          'INVALID_ARGUMENT',
          'An import needs the path of a folder, .zip, SKILL.md or .jsonl',
        );
      }
      // A wrong path is said at once, not as a failed job a moment later.
      const found = await stat(req.path).catch(() => null);
      if (!found)
        throw missingPathError(`Nothing to import at ${req.path}: the path does not exist`, req.path);
      // A FIFO, socket or device is refused before any job opens it (an open could wait forever).
      if (!found.isFile() && !found.isDirectory())
        throw new CuratorError(
          'INVALID_ARGUMENT',
          `${req.path} is neither a file nor a folder (it is ${fileTypeName(found)}, which is never opened)`,
        );
      return ctx.jobs.start(IMPORT_JOB, {
        path: req.path,
        kind: req.kind,
        label: req.label,
        onConflict: req.onConflict,
      } satisfies ImportRequest);
    },
    'library.list': async (req) => listSkills(ctx.db, req ?? {}),
    'library.get': async (req) => {
      if (typeof req.id === 'number') return getSkill(ctx.db, req.id);
      if (typeof req.name === 'string') return getSkillByName(ctx.db, req.name);
      throw new CuratorError('INVALID_ARGUMENT', 'Give a skill id or name');
    },
    'library.file': async (req) => skillFileText(ctx.db, req?.skillId, req?.path),
    'library.search': async (req) => {
      const settings = ctx.settings.get();
      const embedder = req.mode === 'dense' || req.mode === 'hybrid' ? await ctx.engines.embedder() : null;
      return searchSkills(
        {
          db: ctx.db,
          embedder: embedder ?? undefined,
          recallInstruction: settings.selection.recallInstruction,
        },
        { query: req.query, mode: req.mode, filters: req.filters, limit: req.limit },
      );
    },
    'library.stats': async () => libraryStats(ctx.db),
    'library.sources': async () => listSources(ctx.db),
    'library.setEnvironmentNote': async (req) => {
      const source = setEnvironmentNote(ctx.db, req.sourceId, req.note);
      changed('environment-note');
      return source;
    },
    'library.importReport': async (req) => {
      const shown = req.shown;
      if (shown !== undefined && (!Number.isInteger(shown) || shown < 0))
        throw new CuratorError('INVALID_ARGUMENT', 'shown must be a whole number of lines, 0 or more');
      return (latestImportReport(ctx.db, req.sourceId, shown) as ApiImportReport) ?? null;
    },
    'library.conflicts': async (req) => listConflicts(ctx.db, { pendingOnly: !req?.includeResolved }),
    'library.resolveConflict': async (req) => {
      const { skillId } = resolveConflict(deps, req.id, req.resolution, {
        overwriteEdits: req.overwriteEdits === true,
      });
      changed('conflict');
      return { ...getConflict(ctx.db, req.id), skillId };
    },
    'library.resolveConflicts': async (req) => {
      const result = await resolveConflicts(deps, req);
      // One refresh for the whole batch, not one per conflict.
      if (result.resolved > 0) changed('conflicts');
      return result;
    },
  };
}
