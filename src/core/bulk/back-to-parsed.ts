// "Back to parsed" for a selection: verified skills lose the verification and keep their states. A skill whose
// states are the model's own is parsed again; one whose states a person wrote or changed goes back to edited, so
// that a later re-parse (without Replace) still leaves a human's words alone.
import type { BackToParsedResult } from '../../shared/api/bulk';
import type { Clock } from '../llm/ports';
import { currentSnapshot, writeSnapshot, type StatesSnapshot } from '../states/states-records';
import type { Db } from '../store/db';
import { checkSkillIds } from '../tags/verify-many';

/** Whether the states are what the skill's latest parse wrote (no person changed them since). */
function modelWrote(db: Db, skillId: number, now: StatesSnapshot): boolean {
  const after = db
    .prepare(
      `SELECT after FROM state_history WHERE skill_id = ? AND action IN ('parse', 'reparse')
       ORDER BY id DESC LIMIT 1`,
    )
    .pluck()
    .get(skillId) as string | undefined;
  if (after === undefined) return false;
  const parsed = JSON.parse(after) as StatesSnapshot;
  return parsed.precondition === now.precondition && parsed.completion === now.completion;
}

/** `batch`: the bulk change the un-verifies belong to. Call inside a transaction with the change's row. */
export function backToParsed(
  db: Db,
  clock: Clock,
  skillIds: unknown,
  batch: string,
): Omit<BackToParsedResult, 'change'> {
  const ids = checkSkillIds(skillIds);
  const result: Omit<BackToParsedResult, 'change'> = { parsed: [], edited: [], notVerified: [] };
  for (const id of ids) {
    const before = currentSnapshot(db, id);
    if (before.status !== 'verified') {
      result.notVerified.push(id);
      continue;
    }
    const status = modelWrote(db, id, before) ? 'parsed' : 'edited';
    writeSnapshot(db, clock, id, { ...before, status }, 'unverify', before, { batch });
    result[status].push(id);
  }
  return result;
}
