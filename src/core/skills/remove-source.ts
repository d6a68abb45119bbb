// Takes a source out of the library: its skills, their files and text rows, its conflicts and reports.
import { CuratorError } from '../../shared/errors';
import { deleteSkill, skillsOfSource } from '../store/skills-repo';
import { findSource } from '../store/sources-repo';
import type { LibraryDeps, SkillRef } from './types';

export function removeSource(deps: LibraryDeps, sourceId: number): { sourceId: number; removed: SkillRef[] } {
  const { db } = deps;
  return db
    .transaction(() => {
      if (!findSource(db, sourceId)) throw new CuratorError('NOT_FOUND', `No source ${sourceId}`);
      const removed = skillsOfSource(db, sourceId).map((row) => {
        deleteSkill(db, row.id);
        return { name: row.name, relPath: row.relPath };
      });
      // Conflicts and reports go with the source (ON DELETE CASCADE).
      db.prepare('DELETE FROM sources WHERE id = ?').run(sourceId);
      deps.logger.info('source removed', { sourceId, skills: removed.length });
      return { sourceId, removed };
    })
    .immediate();
}
