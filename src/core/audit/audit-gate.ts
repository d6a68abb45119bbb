// The gate before a skill leaves the library (install, export, MCP): skills with an unsuppressed finding at or above
// the settable severity are refused, by name and finding. Skills not audited on their current content are audited
// first, so a silence is never just a missing audit.
import type { Severity } from '../../shared/api/audit';
import { severities, severityRank } from '../../shared/api/audit';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { auditSkills } from './audit-runner';
import { findingsOf, staleSkillIds } from './audit-store';

export interface GateRefusal {
  skillId: number;
  name: string;
  ruleId: string;
  severity: Severity;
  where: string;
}

export async function gateRefusals(
  ctx: Pick<CoreContext, 'db' | 'clock' | 'settings'>,
  skillIds: readonly number[],
): Promise<GateRefusal[]> {
  const gate = ctx.settings.get().audit.gateSeverity;
  if (gate === 'off' || skillIds.length === 0 || ctx.db.readonly) return [];
  const profile = ctx.settings.get().audit.specProfile;
  const wanted = new Set(skillIds);
  const stale = staleSkillIds(ctx.db, profile).filter((id) => wanted.has(id));
  if (stale.length > 0) await auditSkills(ctx, stale, profile);
  const names = ctx.db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
  return findingsOf(ctx.db, [...wanted])
    .filter((f) => f.suppressed === null && severityRank(f.severity) >= severityRank(gate))
    .map((f) => ({
      skillId: f.skillId,
      name: names.get(f.skillId) as string,
      ruleId: f.ruleId,
      severity: f.severity,
      where: `${f.file}${f.line ? `:${f.line}` : ''}`,
    }));
}

/**
 * The skills the gate refuses on their stored audits, without auditing anything (an MCP server leaves them out of
 * every answer at each call; a skill not yet audited is checked when it is read, by gateRefusals).
 */
export function gatedSkillIds(ctx: Pick<CoreContext, 'db' | 'settings'>): number[] {
  const gate = ctx.settings.get().audit.gateSeverity;
  if (gate === 'off') return [];
  const levels = severities.filter((s) => severityRank(s) >= severityRank(gate));
  const flagged = ctx.db
    .prepare(
      'SELECT DISTINCT skill_id FROM audit_findings WHERE severity IN (SELECT value FROM json_each(?))',
    )
    .pluck()
    .all(JSON.stringify(levels)) as number[];
  const refused = findingsOf(ctx.db, flagged).filter(
    (f) => f.suppressed === null && severityRank(f.severity) >= severityRank(gate),
  );
  return [...new Set(refused.map((f) => f.skillId))];
}

/** One line naming each refused skill and its worst finding. */
export function refusalList(refused: readonly GateRefusal[]): { skills: number; list: string } {
  const bySkill = new Map<string, GateRefusal>();
  for (const r of refused) if (!bySkill.has(r.name)) bySkill.set(r.name, r);
  const list = [...bySkill.values()]
    .map((r) => `${r.name} (${r.severity} ${r.ruleId} at ${r.where})`)
    .join(', ');
  return { skills: bySkill.size, list };
}

/** Throws the refusal an install or export gives, naming each skill and its worst finding. */
export async function assertGatePasses(
  ctx: Pick<CoreContext, 'db' | 'clock' | 'settings'>,
  skillIds: readonly number[],
  action: string,
): Promise<void> {
  const refused = await gateRefusals(ctx, skillIds);
  if (refused.length === 0) return;
  const { skills, list } = refusalList(refused);
  throw new CuratorError(
    'CONFLICT',
    `Not ${action}: the audit refuses ${skills === 1 ? 'a skill' : `${skills} skills`} with unsuppressed findings at or above ${ctx.settings.get().audit.gateSeverity}: ${list}. Review them (audit show NAME), suppress a false positive with a reason, or change audit.gateSeverity.`,
    { refused },
  );
}
