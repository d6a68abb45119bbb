// The sources part of the API: Git sources, update checks and applying them, folder watches, delete with undo and
// the conflict diff. The library is written only by addGit (an import job), apply, delete and undo.
import path from 'node:path';
import { realpathSync, rmSync } from 'node:fs';
import type { SourceSync, SourcesApi, UpdateCheck } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { importWithoutJunk } from './import-without-junk';
import { defaultImportSettings, type LibraryDeps } from '../skills/types';
import { findSource } from '../store/sources-repo';
import { labelSetsNaming } from '../eval/gold-coverage';
import { applyScan } from './apply-update';
import { conflictDiff } from './conflict-diff';
import { createFolderWatches } from './folder-watch';
import { checkGitUrl, fetchInto, gitCacheDir, normaliseSubdir, promote, type GitLocation } from './git-fetch';
import { diffHunks, diffLines } from './line-diff';
import {
  allSyncInfo,
  dismissSkillChanges,
  findGitSource,
  markGitChecked,
  openSkillChanges,
  saveGitSource,
  setPending,
  setWatched,
  syncInfo,
  watchedSources,
} from './sync-store';
import {
  deleteToTrash,
  emptyTrash,
  lastDeleted,
  listTrash,
  previewDelete,
  restoreDeleted,
  undoLastDelete,
} from './trash';
import { scanUpstream, type UpstreamScan } from './update-check';

export const GIT_IMPORT_JOB = 'sources.addGit';

const resumers = new WeakMap<CoreContext, () => void>();

/**
 * Starts watching the folders a curator asked to watch. Long-running hosts (the app, `serve`) call it once; a CLI
 * command that only lists or imports does not start watchers.
 */
export function resumeFolderWatches(ctx: CoreContext): void {
  resumers.get(ctx)?.();
}

interface GitImportParams extends GitLocation {
  label: string | null;
  cacheDir: string;
  usesToken: boolean;
}

export function createSourcesService(ctx: CoreContext): { api: SourcesApi; close(): Promise<void> } {
  const { db, clock } = ctx;
  const deps: LibraryDeps = { db, clock: ctx.clock, logger: ctx.logger };
  const now = () => clock().toISOString();
  const changed = (reason: string) => ctx.events.emit({ type: 'library.changed', reason });
  const limits = () => ({ ...defaultImportSettings, ...ctx.settings.get().import });
  const packCaps = () => {
    const { packageFileMaxBytes, gitDownloadMaxBytes } = limits();
    return { objectMaxBytes: packageFileMaxBytes, downloadMaxBytes: gitDownloadMaxBytes };
  };
  const lastScans = new Map<number, { scan: UpstreamScan; commit: string | null }>();
  const tokenName = (cacheDir: string) => `git-token-${path.basename(cacheDir)}`;

  const readToken = async (cacheDir: string, usesToken: boolean) => {
    if (!usesToken) return null;
    const token = (await ctx.secrets.getSecret?.(tokenName(cacheDir))) ?? null;
    if (!token)
      throw new CuratorError(
        'UNAUTHORIZED',
        'The token of this Git source is gone; add the source again with a token',
      );
    return token;
  };

  ctx.jobs.register<GitImportParams>(GIT_IMPORT_JOB, async (params, job) => {
    const token = await readToken(params.cacheDir, params.usesToken);
    job.report({ done: 0, total: 0, message: `Fetching ${params.url}` });
    const commit = await fetchInto(path.join(params.cacheDir, 'next'), params, token, packCaps(), job.signal);
    promote(params.cacheDir);
    const folder = path.join(params.cacheDir, 'checkout', params.subdir);
    let report;
    try {
      report = await importWithoutJunk(
        deps,
        { path: folder, kind: 'folder', label: params.label ?? repoName(params.url, params.subdir) },
        { signal: job.signal, report: job.report, id: job.jobId },
        { settings: ctx.settings.get().import },
      );
    } catch (error) {
      // Nothing stayed in the library: the clone goes too (and the token with it).
      const uri = realpathSync.native(folder);
      if (!db.prepare('SELECT 1 FROM sources WHERE uri = ?').get(uri)) {
        rmSync(params.cacheDir, { recursive: true, force: true });
        if (params.usesToken) await ctx.secrets.setSecret?.(tokenName(params.cacheDir), null);
      }
      throw error instanceof CuratorError && error.code === 'NOT_FOUND'
        ? new CuratorError(
            'NOT_FOUND',
            `No SKILL.md found in ${params.url}${params.subdir ? ` (${params.subdir})` : ''}`,
          )
        : error;
    } finally {
      changed('import');
    }
    if (!findSource(db, report.sourceId)) {
      // Everything was rejected: the report says why, and no empty source stays behind.
      rmSync(params.cacheDir, { recursive: true, force: true });
      return report;
    }
    saveGitSource(db, { sourceId: report.sourceId, ...params, commit }, now());
    return report;
  });

  // A deleted folder settles too: the scan lists every skill removed, and the watch waits for the folder to return.
  const watches = createFolderWatches(
    async (sourceId) => {
      const source = findSource(db, sourceId);
      if (!source) return;
      const scan = await scanUpstream(db, sourceId, source.uri, limits(), new AbortController().signal).catch(
        (error: unknown) => {
          ctx.logger.warn('Could not scan a watched folder', { sourceId, error: String(error) });
          return null;
        },
      );
      if (!scan) return;
      lastScans.set(sourceId, { scan, commit: null });
      setPending(db, sourceId, counts(scan), now());
      changed('pending-update');
    },
    undefined,
    {
      onState: (sourceId, status) => {
        if (status.state === 'stopped')
          ctx.logger.error('A folder watch stopped', { sourceId, error: status.message });
        changed('watch');
      },
    },
  );
  /** What the store says, with the state of this process's watch: a watch that stopped is not 'watched'. */
  const withWatch = (info: SourceSync): SourceSync => {
    const status = watches.status(info.sourceId);
    if (!status) return info;
    return { ...info, watched: info.watched && status.state !== 'stopped', watch: status };
  };
  // A watch started in passing (resume, undo) that cannot start says so in the log; `sources.watch` reports it.
  const startInPassing = (sourceId: number, folder: string) =>
    void watches
      .start(sourceId, folder)
      .catch((error: unknown) =>
        ctx.logger.error('Could not watch a folder source', { sourceId, error: String(error) }),
      );
  /** A restore, then the watches of sources it brought back (a restored source that was watched is watched again). */
  const restoring = <T>(restore: () => T): T => {
    const before = new Set(watchedSources(db).map((w) => w.sourceId));
    const restored = restore();
    for (const w of watchedSources(db)) if (!before.has(w.sourceId)) startInPassing(w.sourceId, w.uri);
    changed('undo-delete');
    return restored;
  };
  resumers.set(ctx, () => {
    for (const w of watchedSources(db)) startInPassing(w.sourceId, w.uri);
  });

  const check = async (sourceId: number): Promise<UpdateCheck> => {
    const source = findSource(db, sourceId);
    if (!source) throw new CuratorError('NOT_FOUND', `No source ${sourceId}`);
    const git = findGitSource(db, sourceId);
    let folder = source.uri;
    let commit: string | null = null;
    if (git) {
      const token = await readToken(git.cacheDir, git.usesToken);
      commit = await fetchInto(path.join(git.cacheDir, 'next'), git, token, packCaps());
      folder = path.join(git.cacheDir, 'next', git.subdir);
      markGitChecked(db, sourceId, now());
    } else if (source.kind !== 'folder') {
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `Source ${sourceId} is a ${source.kind}; only folders and Git repositories can be checked. Import the file again instead.`,
      );
    }
    const scan = await scanUpstream(db, sourceId, folder, limits(), new AbortController().signal);
    lastScans.set(sourceId, { scan, commit });
    if (!git) setPending(db, sourceId, counts(scan), now());
    return {
      sourceId,
      sourceLabel: source.label,
      checkedAt: now(),
      commit,
      added: scan.added,
      changed: scan.changed,
      removed: scan.removed,
      unchanged: scan.unchanged,
      rejected: scan.rejected,
    };
  };

  const api: SourcesApi = {
    'sources.addGit': async (req) => {
      const url = String(req?.url ?? '').trim();
      checkGitUrl(url);
      const where: GitLocation = { url, ref: req.ref?.trim() || null, subdir: normaliseSubdir(req.subdir) };
      const cacheDir = gitCacheDir(ctx.paths.dataDir, where);
      const taken = db
        .prepare('SELECT source_id AS id FROM git_sources WHERE cache_dir = ?')
        .get(cacheDir) as { id: number } | undefined;
      if (taken) {
        throw new CuratorError(
          'CONFLICT',
          `This repository (${where.ref ?? 'default branch'}) is already source ${taken.id}; check it for updates instead`,
        );
      }
      const token = req.token?.trim() || null;
      if (token) {
        if (!ctx.secrets.setSecret) throw new CuratorError('UNAVAILABLE', 'This host cannot keep tokens');
        await ctx.secrets.setSecret(tokenName(cacheDir), token);
      }
      // The token never goes into the job's stored parameters, only its name.
      return ctx.jobs.start(GIT_IMPORT_JOB, {
        ...where,
        label: req.label?.trim() || null,
        cacheDir,
        usesToken: token !== null,
      } satisfies GitImportParams);
    },
    'sources.sync': async () => allSyncInfo(db).map(withWatch),
    'sources.check': async (req) => check(req.sourceId),
    'sources.apply': async (req) => {
      const source = findSource(db, req.sourceId);
      if (!source) throw new CuratorError('NOT_FOUND', `No source ${req.sourceId}`);
      if (!lastScans.has(req.sourceId)) await check(req.sourceId);
      const { scan, commit } = lastScans.get(req.sourceId)!;
      const git = findGitSource(db, req.sourceId);
      if (git && commit) promote(git.cacheDir);
      const picked = req.relPaths ? new Set(req.relPaths) : null;
      const result = applyScan(deps, source, scan, picked, commit);
      lastScans.delete(req.sourceId);
      if (git && commit) markGitChecked(db, req.sourceId, now(), commit);
      const left = (items: { relPath: string }[]) =>
        items.filter((i) => picked && !picked.has(i.relPath)).length;
      setPending(
        db,
        req.sourceId,
        { added: left(scan.added), changed: left(scan.changed), removed: left(scan.removed) },
        now(),
      );
      changed('sync');
      return result;
    },
    'sources.watch': async (req) => {
      const source = findSource(db, req.sourceId);
      if (!source) throw new CuratorError('NOT_FOUND', `No source ${req.sourceId}`);
      if (req.watch) {
        if (source.kind !== 'folder' || findGitSource(db, req.sourceId)) {
          throw new CuratorError(
            'INVALID_ARGUMENT',
            'Only a folder source can be watched (a Git source is checked for updates)',
          );
        }
        setWatched(db, req.sourceId, true, now());
        await watches.start(req.sourceId, source.uri);
      } else {
        setWatched(db, req.sourceId, false, now());
        await watches.stop(req.sourceId);
      }
      changed('watch');
      return withWatch(syncInfo(db, req.sourceId));
    },
    'sources.skillChange': async (req) => {
      const rows = openSkillChanges(db, req.skillId);
      if (rows.length === 0) return null;
      const first = rows[0]!;
      const last = rows[rows.length - 1]!;
      return {
        skillId: req.skillId,
        changedAt: last.changedAt,
        reviewStatus: first.reviewStatus as never,
        diff: diffHunks(diffLines(first.beforeText, last.afterText)),
      };
    },
    'sources.dismissChange': async (req) => {
      const dismissed = dismissSkillChanges(db, req.skillId, now());
      ctx.events.emit({ type: 'states.changed', skillIds: [req.skillId] });
      return { dismissed };
    },
    'sources.deletePreview': async (req) => {
      const preview = previewDelete(db, req);
      return { ...preview, goldIn: labelSetsNaming(db, preview.names) };
    },
    'sources.delete': async (req) => {
      const info = deleteToTrash(db, req, now());
      if (req.sourceId !== undefined) {
        await watches.stop(req.sourceId);
        lastScans.delete(req.sourceId);
      }
      changed('delete');
      return info;
    },
    'sources.undoDelete': async () => restoring(() => undoLastDelete(db, now())),
    'sources.restoreDeleted': async (req) => restoring(() => restoreDeleted(db, req.id, now())),
    'sources.lastDeleted': async () => lastDeleted(db),
    'sources.trash': async () => listTrash(db),
    'sources.emptyTrash': async (req) => {
      const gone = emptyTrash(db, req.id);
      changed('empty-trash');
      return gone;
    },
    'sources.conflictDiff': async (req) => conflictDiff(db, req.conflictId),
  };
  return { api, close: () => watches.close() };
}

function counts(scan: UpstreamScan) {
  return { added: scan.added.length, changed: scan.changed.length, removed: scan.removed.length };
}

function repoName(url: string, subdir: string): string {
  const base =
    url
      .replace(/\/+$/, '')
      .split('/')
      .pop()
      ?.replace(/\.git$/, '') || url;
  return subdir ? `${base}/${subdir}` : base;
}
