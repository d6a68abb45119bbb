// The two sides of a name conflict, for a side-by-side diff before keep-both / replace / skip.
import type { ConflictDiff } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import { findConflict } from '../store/conflicts-repo';
import type { Db } from '../store/db';
import { findSource } from '../store/sources-repo';
import { diffLines } from './line-diff';

export function conflictDiff(db: Db, conflictId: number): ConflictDiff {
  const conflict = findConflict(db, conflictId);
  if (!conflict) throw new CuratorError('NOT_FOUND', `No import conflict ${conflictId}`);
  const existing = db
    .prepare(
      'SELECT id, source_id AS sourceId, rel_path AS relPath, description, full_text AS text FROM skills WHERE id = ?',
    )
    .get(conflict.existingSkillId) as
    { id: number; sourceId: number; relPath: string; description: string; text: string } | undefined;
  const label = (sourceId: number) => findSource(db, sourceId)?.label ?? `source ${sourceId}`;
  return {
    conflictId,
    name: conflict.name,
    existing: existing
      ? {
          skillId: existing.id,
          sourceLabel: label(existing.sourceId),
          relPath: existing.relPath,
          description: existing.description,
          text: existing.text,
        }
      : { skillId: null, sourceLabel: '(deleted)', relPath: '', description: '', text: '' },
    incoming: {
      skillId: null,
      sourceLabel: label(conflict.sourceId),
      relPath: conflict.relPath,
      description: conflict.incoming.description,
      text: conflict.incoming.fullText,
    },
    diff: diffLines(existing?.text ?? '', conflict.incoming.fullText),
  };
}
