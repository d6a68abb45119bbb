// Which skills with a person's work on their states (edited or verified) a conflict's resolution would change or
// remove, so that no resolution overwrites human edits silently: a bulk resolution asks first, and a changed skill
// records the change ("skill changed since", with its diff) the way a source update does.
import type { EditedSkillTouched } from '../../shared/api';
import type { ConflictRow } from '../store/conflicts-repo';
import type { Db } from '../store/db';
import { findSkillAt, findSkillById } from '../store/skills-repo';
import { stmt } from '../store/statements';
import type { ConflictResolution } from './types';

function editedStatus(db: Db, skillId: number): 'edited' | 'verified' | null {
  const status = stmt(db, 'SELECT status FROM skill_states WHERE skill_id = ?').pluck().get(skillId) as
    string | undefined;
  return status === 'edited' || status === 'verified' ? status : null;
}

/** The skills a resolution writes over (content-replaced) or deletes (removed), those a person edited only. */
export function editedSkillsTouched(
  db: Db,
  conflict: Pick<ConflictRow, 'existingSkillId' | 'sourceId' | 'relPath'>,
  resolution: ConflictResolution,
): EditedSkillTouched[] {
  if (resolution === 'skip') return [];
  const touched: { id: number; name: string; change: EditedSkillTouched['change'] }[] = [];
  const occupant = findSkillAt(db, conflict.sourceId, conflict.relPath);
  const existing = resolution === 'replace' ? findSkillById(db, conflict.existingSkillId) : undefined;
  if (existing) {
    // replaceRival: the existing skill takes the incoming content; another skill at the incoming place is deleted.
    touched.push({ id: existing.id, name: existing.name, change: 'content-replaced' });
    if (occupant && occupant.id !== existing.id)
      touched.push({ id: occupant.id, name: occupant.name, change: 'removed' });
  } else if (occupant) {
    // writeHere: the skill at the incoming place is updated in place.
    touched.push({ id: occupant.id, name: occupant.name, change: 'content-replaced' });
  }
  return touched.flatMap((t) => {
    const status = editedStatus(db, t.id);
    return status ? [{ skillId: t.id, name: t.name, status, change: t.change }] : [];
  });
}
