// Many conflicts answered at once (after a re-import left hundreds open). Each is resolved in its own transaction, as
// one resolution is: a conflict that fails stays open and is reported while the others are done, and after a crash
// a rerun over the open conflicts finishes the rest. A dry run says what each would do and writes nothing.
import type {
  ConflictResolutionItem,
  ResolveConflictsRequest,
  ResolveConflictsResult,
} from '../../shared/api';
import { CuratorError, toErrorData } from '../../shared/errors';
import { findConflict, listConflictRows, type ConflictRow } from '../store/conflicts-repo';
import { editedSkillsTouched } from './conflict-edits';
import { resolveConflict } from './resolve-conflict';
import type { LibraryDeps } from './types';

const resolutions = ['keep-both', 'replace', 'skip'];

/** The conflicts asked for, in id order; an id that names no conflict stays in the list (null) to be reported. */
function chosen(deps: LibraryDeps, req: ResolveConflictsRequest): { id: number; row: ConflictRow | null }[] {
  if (req.all === 'open') {
    return listConflictRows(deps.db, { pendingOnly: true })
      .filter((c) => req.sourceId === undefined || c.sourceId === req.sourceId)
      .map((row) => ({ id: row.id, row }));
  }
  const ids = [...new Set(req.ids)].sort((a, b) => a - b);
  return ids.map((id) => ({ id, row: findConflict(deps.db, id) ?? null }));
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

export function resolveConflicts(deps: LibraryDeps, req: ResolveConflictsRequest): ResolveConflictsResult {
  checkRequest(req);
  const { resolution } = req;
  const dryRun = req.dryRun === true;
  const items: ConflictResolutionItem[] = [];
  for (const { id, row } of chosen(deps, req)) {
    const base = { id, name: row?.name ?? '', relPath: row?.relPath ?? '' };
    if (!row) {
      const error = {
        code: 'NOT_FOUND',
        message: `No import conflict ${id} (it was removed or never existed)`,
      };
      items.push({ ...base, outcome: 'failed', skillId: null, editedSkills: [], error });
    } else if (row.resolvedAt !== null) {
      const message = `Import conflict ${id} was already resolved (${row.resolution})`;
      items.push({
        ...base,
        outcome: 'failed',
        skillId: null,
        editedSkills: [],
        error: { code: 'CONFLICT', message },
      });
    } else if (dryRun) {
      const editedSkills = editedSkillsTouched(deps.db, row, resolution);
      items.push({ ...base, outcome: 'planned', skillId: null, editedSkills });
    } else {
      try {
        const done = resolveConflict(deps, id, resolution, { overwriteEdits: req.overwriteEdits === true });
        items.push({ ...base, outcome: 'resolved', skillId: done.skillId, editedSkills: done.editedSkills });
      } catch (error) {
        const { code, message } = toErrorData(error);
        const editedSkills = editedSkillsTouched(deps.db, row, resolution);
        items.push({ ...base, outcome: 'failed', skillId: null, editedSkills, error: { code, message } });
        deps.logger.warn('conflict not resolved', { conflictId: id, code, message });
      }
    }
  }
  return {
    resolution,
    dryRun,
    resolved: items.filter((i) => i.outcome === 'resolved').length,
    failed: items.filter((i) => i.outcome === 'failed').length,
    editedSkills: items.filter((i) => i.outcome !== 'failed').reduce((n, i) => n + i.editedSkills.length, 0),
    items,
  };
}
