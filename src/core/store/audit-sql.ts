// The audit as the library's lists see it, in SQL: a skill's worst unsuppressed finding (kept per skill by the
// triggers of migration 75) and the audit filters.
import type { Severity } from '../../shared/api/audit';
import { severities, severityRank } from '../../shared/api/audit';
import type { Db } from './db';

const hasAuditTables = new WeakMap<Db, boolean>();

/** The audit tables come with migrations 71 and 75; a library opened before them has no audit. */
function audited(db: Db): boolean {
  let has = hasAuditTables.get(db);
  if (has === undefined) {
    has =
      db
        .prepare(
          "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('audit_state', 'audit_worst')",
        )
        .pluck()
        .get() === 2;
    hasAuditTables.set(db, has);
  }
  return has;
}

/** Columns `auditWorst` (the worst unsuppressed severity, or null) and `auditedAt` for the skill `${alias}`. */
export function auditColumnsSql(db: Db, alias: string): string {
  if (!audited(db)) return 'NULL AS auditWorst, NULL AS auditedAt';
  return `CASE (SELECT aw.worst FROM audit_worst aw WHERE aw.skill_id = ${alias}.id)
      ${severities.map((s, i) => `WHEN ${i} THEN '${s}'`).join(' ')} END AS auditWorst,
    (SELECT a.audited_at FROM audit_state a WHERE a.skill_id = ${alias}.id) AS auditedAt`;
}

// EXISTS rather than IN: a page in name order stops after its rows instead of first listing every flagged skill.
const atLeastSql = (alias: string, min: Severity) =>
  `EXISTS (SELECT 1 FROM audit_worst aw WHERE aw.skill_id = ${alias}.id AND aw.worst >= ${severityRank(min)})`;

/**
 * The audit filters as SQL conditions over `${alias}`: at or above a severity; clean (audited, nothing unsuppressed
 * above info); never audited.
 */
export function auditFilterSql(
  db: Db,
  alias: string,
  filter: { auditAtLeast?: Severity; auditState?: 'clean' | 'unaudited' },
): string[] {
  const where: string[] = [];
  const has = audited(db);
  if (filter.auditAtLeast !== undefined) where.push(has ? atLeastSql(alias, filter.auditAtLeast) : '0');
  if (filter.auditState === 'unaudited')
    where.push(has ? `NOT EXISTS (SELECT 1 FROM audit_state a WHERE a.skill_id = ${alias}.id)` : '1');
  if (filter.auditState === 'clean')
    where.push(
      has
        ? `EXISTS (SELECT 1 FROM audit_state a WHERE a.skill_id = ${alias}.id) AND NOT ${atLeastSql(alias, 'low')}`
        : '0',
    );
  return where;
}
