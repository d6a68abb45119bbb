// Which library skills an install request stands for: a profile's, or a list of ids.
import { CuratorError } from '../../shared/errors';
import type { InstallSelection } from '../../shared/install';
import { getProfile } from '../profiles';
import type { InstallContext } from './install';
import type { LibrarySkill } from './library-package';

/** The skills a profile or a list of ids stands for, and the set name the lock file files them under. */
export function selectionOf(
  ctx: InstallContext,
  sel: InstallSelection,
): { skills: LibrarySkill[]; set: string } {
  let ids: number[];
  let set: string;
  if (sel.profile !== undefined) {
    const profile = getProfile(ctx, sel.profile);
    ids = profile.skills.map((s) => s.id);
    set = `profile:${profile.name}`;
  } else if (Array.isArray(sel.skillIds) && sel.skillIds.length > 0) {
    ids = [...new Set(sel.skillIds)];
    set = 'skills';
  } else throw new CuratorError('INVALID_ARGUMENT', 'Choose a profile or at least one skill');
  const rows = ctx.db
    .prepare(
      `SELECT id, name, content_hash AS contentHash FROM skills
       WHERE id IN (SELECT value FROM json_each(?)) ORDER BY name, id`,
    )
    .all(JSON.stringify(ids)) as LibrarySkill[];
  const unknown = ids.filter((id) => !rows.some((r) => r.id === id));
  if (unknown.length > 0) throw new CuratorError('NOT_FOUND', `No skill with id ${unknown.join(', ')}`);
  return { skills: rows, set };
}
