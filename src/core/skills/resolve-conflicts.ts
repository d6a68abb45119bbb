// Many conflicts answered at once (after a re-import left hundreds open). Each is resolved in its own savepoint inside
// a transaction of up to 100: a conflict that fails rolls back alone, stays open and is reported while the others are
// done; after a crash what was committed is resolved and the rest is still open, so a rerun over the open conflicts
// finishes it. A dry run says what each would do and writes nothing.
import type {
  ConflictResolutionItem,
  ResolveConflictsRequest,
  ResolveConflictsResult,
} from '../../shared/api';
import { CuratorError, toErrorData } from '../../shared/errors';
import { findConflict, openConflictIds, type ConflictRow } from '../store/conflicts-repo';
import { editedSkillsTouched } from './conflict-edits';
import { resolveConflict } from './resolve-conflict';
import type { LibraryDeps } from './types';

const resolutions = ['keep-both', 'replace', 'skip'];

/** The ids asked for, in id order (an id that names no conflict stays, to be reported). */
function chosen(deps: LibraryDeps, req: ResolveConflictsRequest): number[] {
  if (req.all === 'open') return openConflictIds(deps.db, req.sourceId);
  return [...new Set(req.ids)].sort((a, b) => a - b);
}

function checkRequest(req: ResolveConflictsRequest): void {
  if (!req || !resolutions.includes(req.resolution)) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Conflicts are resolved with keep-both, replace or skip, not "${String(req?.resolution)}"`,
    );
  }
  const hasIds = Array.isArray(req.ids);
  if (hasIds === (req.all === 'open')) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      'Say which conflicts to resolve: either ids (a list of conflict ids) or all: "open"',
    );
  }
  if (req.all !== undefined && req.all !== 'open')
    throw new CuratorError('INVALID_ARGUMENT', `all must be "open", not "${String(req.all)}"`);
  if (hasIds && !req.ids!.every((id) => Number.isInteger(id) && id > 0))
    throw new CuratorError('INVALID_ARGUMENT', 'Conflict ids are positive whole numbers');
  if (req.sourceId !== undefined && hasIds)
    throw new CuratorError('INVALID_ARGUMENT', 'sourceId narrows all: "open"; with ids, list the ids wanted');
}

/** Conflicts committed together; each still has its own savepoint, so one that fails rolls back alone. */
const batchSize = 100;

type Target = { id: number; row: ConflictRow | null };

function notOpen(id: number, row: ConflictRow | null): ConflictResolutionItem | null {
  const base = { id, name: row?.name ?? '', relPath: row?.relPath ?? '', skillId: null, editedSkills: [] };
  if (!row) {
    const message = `No import conflict ${id} (it was removed or never existed)`;
    return { ...base, outcome: 'failed', error: { code: 'NOT_FOUND', message } };
  }
  if (row.resolvedAt === null) return null;
  const message = `Import conflict ${id} was already resolved (${row.resolution})`;
  return { ...base, outcome: 'failed', error: { code: 'CONFLICT', message } };
}

function resolveOne(
  deps: LibraryDeps,
  row: ConflictRow,
  req: ResolveConflictsRequest,
  inBatch: boolean,
): ConflictResolutionItem {
  const base = { id: row.id, name: row.name, relPath: row.relPath };
  if (req.dryRun) {
    const editedSkills = editedSkillsTouched(deps.db, row, req.resolution);
    return { ...base, outcome: 'planned', skillId: null, editedSkills };
  }
  try {
    const done = resolveConflict(deps, row.id, req.resolution, {
      overwriteEdits: req.overwriteEdits === true,
    });
    return { ...base, outcome: 'resolved', skillId: done.skillId, editedSkills: done.editedSkills };
  } catch (error) {
    // A failure SQLite answers by rolling the whole transaction back is not this conflict's alone: the batch is redone.
    if (inBatch && !deps.db.inTransaction) throw error;
    const { code, message } = toErrorData(error);
    // Left open over a curator's edits is an answer the caller gets and shows, not a fault.
    const log = code === 'CONFLICT' ? deps.logger.info : deps.logger.warn;
    log('conflict not resolved', { conflictId: row.id, code, reason: message });
    const editedSkills = editedSkillsTouched(deps.db, row, req.resolution);
    return { ...base, outcome: 'failed', skillId: null, editedSkills, error: { code, message } };
  }
}

/** A batch in one transaction (a savepoint per conflict); should the transaction itself fail, one by one. */
function resolveBatch(
  deps: LibraryDeps,
  batch: Target[],
  req: ResolveConflictsRequest,
): ConflictResolutionItem[] {
  const each = (targets: Target[], inBatch: boolean) =>
    targets.map(({ id, row }) => notOpen(id, row) ?? resolveOne(deps, row!, req, inBatch));
  if (req.dryRun) return each(batch, false);
  try {
    return deps.db.transaction(() => each(batch, true)).immediate();
  } catch (error) {
    deps.logger.warn('a batch of conflicts could not be committed; resolving them one by one', {
      error: String(error),
    });
    const fresh = batch.map(({ id }) => ({ id, row: findConflict(deps.db, id) ?? null }));
    return each(fresh, false);
  }
}

/**
 * Resolves the chosen conflicts in batches, letting the event loop run between them (1,000 take a second or two:
 * bench/resolve-conflicts.ts), so the host answers other calls meanwhile. After a crash, what was committed is
 * resolved and the rest is still open: a rerun over the open conflicts finishes it.
 */
export async function resolveConflicts(
  deps: LibraryDeps,
  req: ResolveConflictsRequest,
): Promise<ResolveConflictsResult> {
  checkRequest(req);
  const ids = chosen(deps, req);
  const items: ConflictResolutionItem[] = [];
  for (let i = 0; i < ids.length; i += batchSize) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    // Read now: a call between batches may have resolved some of them.
    const batch = ids.slice(i, i + batchSize).map((id) => ({ id, row: findConflict(deps.db, id) ?? null }));
    items.push(...resolveBatch(deps, batch, req));
  }
  return {
    resolution: req.resolution,
    dryRun: req.dryRun === true,
    resolved: items.filter((i) => i.outcome === 'resolved').length,
    failed: items.filter((i) => i.outcome === 'failed').length,
    editedSkills: items.filter((i) => i.outcome !== 'failed').reduce((n, i) => n + i.editedSkills.length, 0),
    items,
  };
}
