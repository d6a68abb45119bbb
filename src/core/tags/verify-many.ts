// Verifies a selection of skills at once (the Library's bulk Verify) in one transaction: all or none are written.
import type { VerifyManyResult } from '../../shared/api/tags';
import { CuratorError } from '../../shared/errors';
import type { Clock } from '../llm/ports';
import { getStates, revertStates, stateHistory, verifyStates } from '../states';
import { assertVerifyAcknowledged } from '../states/verify-audit-check';
import type { Db } from '../store/db';

/** The ids of a bulk action over skills: a non-empty list of integers, each once. */
export function checkSkillIds(skillIds: unknown): number[] {
  if (!Array.isArray(skillIds) || skillIds.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Give the ids of the skills (skillIds)');
  for (const id of skillIds)
    if (!Number.isInteger(id))
      throw new CuratorError('INVALID_ARGUMENT', `"${String(id)}" is not a skill id`);
  return [...new Set(skillIds as number[])];
}

/** `batch`: the bulk change the verifies belong to (their history rows carry it, for bulk.undo). */
export function verifyMany(
  db: Db,
  clock: Clock,
  skillIds: unknown,
  acknowledgeAudit?: unknown,
  batch?: string,
): VerifyManyResult {
  const ids = checkSkillIds(skillIds);
  // Only the skills this would verify are asked about: those with states, not verified as they are.
  const toVerify = ids.filter((id) => {
    const states = getStates(db, id);
    return states.completion !== null && !(states.status === 'verified' && !states.outdated);
  });
  assertVerifyAcknowledged(db, toVerify, acknowledgeAudit);
  return db
    .transaction((): VerifyManyResult => {
      const result: VerifyManyResult = { verified: [], alreadyVerified: [], skipped: [] };
      for (const id of ids) {
        const states = getStates(db, id);
        if (states.completion === null) result.skipped.push({ skillId: id, status: states.status });
        else if (states.status === 'verified' && !states.outdated) result.alreadyVerified.push(id);
        else {
          verifyStates(db, clock, id, batch);
          result.verified.push(id);
        }
      }
      return result;
    })
    .immediate();
}

/** Puts each skill's states back as they were before its last verify (itself a step in the history). */
export function unverifyMany(db: Db, clock: Clock, skillIds: unknown): { reverted: number[] } {
  const ids = checkSkillIds(skillIds);
  return db
    .transaction(() => {
      const reverted: number[] = [];
      for (const id of ids) {
        const last = stateHistory(db, id).find((h) => h.action === 'verify' && h.before !== null);
        if (!last || getStates(db, id).status !== 'verified') continue;
        revertStates(db, clock, id, last.id);
        reverted.push(id);
      }
      return { reverted };
    })
    .immediate();
}
