// The library skill a lock entry names. Ids are the library's own, so an entry is matched by id and name first, then
// (a lock written against another library file, as a cloned project's is) by its name at the pinned content.
import type { InstallContext } from './install';
import type { LibrarySkill } from './library-package';
import type { LockEntry } from './lock-file';

export interface LockedSkill {
  /** The skill to install or compare with: at the pinned content when state is 'same'. */
  skill: LibrarySkill | null;
  /** same: the library holds the pinned content; moved-on: the skill is there with other content; gone: it is not. */
  state: 'same' | 'moved-on' | 'gone';
}

export function lockedSkill(
  ctx: InstallContext,
  entry: Pick<LockEntry, 'skill' | 'skillId' | 'contentHash'>,
): LockedSkill {
  const byId = ctx.db
    .prepare('SELECT id, name, content_hash AS contentHash FROM skills WHERE id = ?')
    .get(entry.skillId) as LibrarySkill | undefined;
  if (byId && byId.name === entry.skill)
    return { skill: byId, state: byId.contentHash === entry.contentHash ? 'same' : 'moved-on' };
  const byName = ctx.db
    .prepare('SELECT id, name, content_hash AS contentHash FROM skills WHERE name = ? ORDER BY id')
    .all(entry.skill) as LibrarySkill[];
  const pinned = byName.find((s) => s.contentHash === entry.contentHash);
  if (pinned) return { skill: pinned, state: 'same' };
  return byName.length === 1 ? { skill: byName[0]!, state: 'moved-on' } : { skill: null, state: 'gone' };
}
