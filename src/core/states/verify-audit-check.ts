// Verifying says a curator read a skill and trusts it: a skill whose audit found something high or critical, and no
// one suppressed it, is verified only when the request acknowledges those findings (the app asks first).
import type { VerifyAuditFinding } from '../../shared/api/llm';
import { severityRank } from '../../shared/api/audit';
import { CuratorError } from '../../shared/errors';
import { findingsOf } from '../audit/audit-store';
import type { Db } from '../store/db';

/** How many findings the refusal's message names (all of them are in its details, up to `detailed`). */
const named = 5;
const detailed = 200;

export function verifyAuditFindings(db: Db, skillIds: readonly number[]): VerifyAuditFinding[] {
  const names = db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
  return findingsOf(db, skillIds)
    .filter((f) => f.suppressed === null && severityRank(f.severity) >= severityRank('high'))
    .sort((a, b) => severityRank(b.severity) - severityRank(a.severity))
    .map((f) => ({
      skillId: f.skillId,
      name: (names.get(f.skillId) as string | undefined) ?? `#${f.skillId}`,
      findingId: f.id,
      ruleId: f.ruleId,
      severity: f.severity,
      where: `${f.file}${f.line !== null ? `:${f.line}` : ''}`,
    }));
}

/** Throws CONFLICT naming the findings, unless there are none or the request acknowledged them. */
export function assertVerifyAcknowledged(db: Db, skillIds: readonly number[], acknowledged: unknown): void {
  if (acknowledged === true || skillIds.length === 0) return;
  const found = verifyAuditFindings(db, skillIds);
  if (found.length === 0) return;
  const skills = new Set(found.map((f) => f.skillId)).size;
  const list = found
    .slice(0, named)
    .map((f) => `${f.name} (${f.severity} ${f.ruleId} at ${f.where})`)
    .join(', ');
  const more = found.length > named ? ` and ${found.length - named} more` : '';
  throw new CuratorError(
    'CONFLICT',
    `Not verified: ${skills === 1 ? 'the skill has' : `${skills} skills have`} unsuppressed high or critical audit findings: ${list}${more}. Review them (suppress a false positive with a reason), or verify anyway acknowledging them (acknowledgeAudit; CLI --acknowledge-audit).`,
    { auditFindings: found.slice(0, detailed) },
  );
}
