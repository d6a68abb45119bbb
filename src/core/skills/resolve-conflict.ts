// The user's answer to a recorded name conflict: keep both skills, let the incoming one replace the existing one, or skip it.
import type { EditedSkillTouched } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import { findConflict, markResolved } from '../store/conflicts-repo';
import { getConflict, type ConflictView } from '../store/library-repo';
import { findSkillAt, findSkillById } from '../store/skills-repo';
import { recordSkillChange } from '../sources/sync-store';
import { editedSkillsTouched } from './conflict-edits';
import { readParsedSkill, replaceRival, writeHere } from './place-skill';
import type { ConflictResolution, LibraryDeps } from './types';

export interface ConflictOutcome {
  conflictId: number;
  resolution: ConflictResolution;
  /** The skill that now holds the incoming content (null after 'skip'). */
  skillId: number | null;
  conflict: ConflictView;
  /** Skills a person had edited or verified that this resolution changed or removed. */
  editedSkills: EditedSkillTouched[];
}

/**
 * overwriteEdits false: a resolution that would change a skill whose states a person edited or verified is refused
 * (CONFLICT), nothing written. Either way a changed edited skill records the change, shown as "skill changed since".
 */
export function resolveConflict(
  deps: LibraryDeps,
  conflictId: number,
  resolution: ConflictResolution,
  options: { overwriteEdits?: boolean } = {},
): ConflictOutcome {
  const { db, clock } = deps;
  if (!['keep-both', 'replace', 'skip'].includes(resolution)) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `A conflict is resolved with keep-both, replace or skip, not "${String(resolution)}"`,
    );
  }
  return db
    .transaction((): ConflictOutcome => {
      const conflict = findConflict(db, conflictId);
      if (!conflict) throw new CuratorError('NOT_FOUND', `No import conflict ${conflictId}`);
      if (conflict.resolvedAt !== null) {
        throw new CuratorError(
          'CONFLICT',
          `Import conflict ${conflictId} was already resolved (${conflict.resolution})`,
          { resolution: conflict.resolution },
        );
      }
      const editedSkills = editedSkillsTouched(db, conflict, resolution);
      if (editedSkills.length > 0 && options.overwriteEdits === false) {
        const names = editedSkills.map((e) => `"${e.name}" (${e.status})`).join(', ');
        throw new CuratorError(
          'CONFLICT',
          `Resolving conflict ${conflictId} with ${resolution} would change ${names}, whose states a person edited; left open (confirm overwriting edits to resolve it)`,
          { editedSkills },
        );
      }
      const before = new Map(
        editedSkills
          .filter((e) => e.change === 'content-replaced')
          .map((e) => [e.skillId, readParsedSkill(db, e.skillId)?.fullText ?? '']),
      );
      const now = clock().toISOString();
      // Resolved first: writing the skill clears pending conflicts at its place, and this one is no longer pending.
      markResolved(db, conflictId, resolution, now);
      const incoming = { ...conflict.incoming, relPath: conflict.relPath };
      let skillId: number | null = null;
      const existing = findSkillById(db, conflict.existingSkillId);
      if (resolution === 'keep-both' || (resolution === 'replace' && !existing)) {
        const placed = writeHere(
          db,
          conflict.sourceId,
          findSkillAt(db, conflict.sourceId, conflict.relPath),
          incoming,
          now,
        );
        skillId = 'skillId' in placed ? placed.skillId : null;
      } else if (resolution === 'replace' && existing) {
        replaceRival(db, existing, conflict.sourceId, incoming, now);
        skillId = existing.id;
      }
      for (const e of editedSkills)
        if (before.has(e.skillId))
          recordSkillChange(db, e.skillId, before.get(e.skillId)!, incoming.fullText, e.status, now);
      return { conflictId, resolution, skillId, conflict: getConflict(db, conflictId), editedSkills };
    })
    .immediate();
}
