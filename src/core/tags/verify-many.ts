// Verifies a selection of skills at once (the Library's bulk Verify) in one transaction: all or none are written.
import type { VerifyManyResult } from '../../shared/api/tags';
import { CuratorError } from '../../shared/errors';
import type { Clock } from '../llm/ports';
import { getStates, verifyStates } from '../states';
import type { Db } from '../store/db';

export function verifyMany(db: Db, clock: Clock, skillIds: unknown): VerifyManyResult {
  if (!Array.isArray(skillIds) || skillIds.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Give the ids of the skills to verify (skillIds)');
  for (const id of skillIds)
    if (!Number.isInteger(id))
      throw new CuratorError('INVALID_ARGUMENT', `"${String(id)}" is not a skill id`);
  const ids = [...new Set(skillIds as number[])];
  return db
    .transaction((): VerifyManyResult => {
      const result: VerifyManyResult = { verified: [], alreadyVerified: [], skipped: [] };
      for (const id of ids) {
        const states = getStates(db, id);
        if (states.completion === null) result.skipped.push({ skillId: id, status: states.status });
        else if (states.status === 'verified' && !states.outdated) result.alreadyVerified.push(id);
        else {
          verifyStates(db, clock, id);
          result.verified.push(id);
        }
      }
      return result;
    })
    .immediate();
}
