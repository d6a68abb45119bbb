// The filters shared by skill lists and keyword search (source, review status, warnings, errors) as one SQL clause.
import { CuratorError } from '../../shared/errors';
import type { Severity } from '../../shared/api/audit';
import { severities } from '../../shared/api/audit';
import { auditFilterSql } from './audit-sql';
import type { Db } from './db';
import { isReviewStatus, reviewStatusSql, type ReviewStatus } from './review-status';

export interface SkillFilter {
  sourceId?: number;
  status?: ReviewStatus;
  /** Skills kept with validation warnings (true) or without any (false). */
  hasWarnings?: boolean;
  /** Skills whose parse failed (review status 'failed'): the errors a kept skill can have. */
  hasErrors?: boolean;
  /** Only these skills (a profile, the set an MCP server may serve). */
  skillIds?: readonly number[];
  /** Not these skills (those the audit gate refuses, for an MCP server). */
  excludeSkillIds?: readonly number[];
  /** Skills that carry this tag (compared trimmed and lower-cased, as tags are stored). */
  tag?: string;
  /** Skills of exactly this name. */
  name?: string;
  /** Skills verified at their current content (true), or all others (false). */
  verifiedAsIs?: boolean;
  /** Skills with an unsuppressed audit finding at or above this severity. */
  auditAtLeast?: Severity;
  /** Skills audited with nothing unsuppressed above info (clean), or never audited. */
  auditState?: 'clean' | 'unaudited';
}

export function filterSql(
  db: Db,
  alias: string,
  filter: SkillFilter,
): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.sourceId !== undefined) {
    where.push(`${alias}.source_id = ?`);
    params.push(filter.sourceId);
  }
  if (filter.status !== undefined) {
    if (!isReviewStatus(filter.status))
      throw new CuratorError('INVALID_ARGUMENT', `Unknown review status "${String(filter.status)}"`);
    where.push(`${reviewStatusSql(db, alias)} = ?`);
    params.push(filter.status);
  }
  if (filter.hasWarnings !== undefined)
    where.push(`${alias}.warning_count ${filter.hasWarnings ? '>' : '='} 0`);
  if (filter.hasErrors !== undefined)
    where.push(`${reviewStatusSql(db, alias)} ${filter.hasErrors ? '=' : '!='} 'failed'`);
  if (filter.skillIds !== undefined) {
    where.push(`${alias}.id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filter.skillIds));
  }
  if (filter.excludeSkillIds !== undefined && filter.excludeSkillIds.length > 0) {
    where.push(`${alias}.id NOT IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filter.excludeSkillIds));
  }
  if (filter.tag !== undefined) {
    where.push(`${alias}.id IN (SELECT skill_id FROM skill_tags WHERE tag = ?)`);
    params.push(String(filter.tag).trim().replace(/\s+/g, ' ').toLowerCase());
  }
  if (filter.verifiedAsIs !== undefined) {
    // Verifying records the content it judged (source_hash); a re-import or sync that changes the skill keeps the
    // states, so the two differ until a curator verifies again.
    where.push(
      `${filter.verifiedAsIs ? '' : 'NOT '}EXISTS (SELECT 1 FROM skill_states vst WHERE vst.skill_id = ${alias}.id
         AND vst.status = 'verified' AND vst.source_hash = ${alias}.content_hash)`,
    );
  }
  if (filter.auditAtLeast !== undefined && !severities.includes(filter.auditAtLeast))
    throw new CuratorError('INVALID_ARGUMENT', `auditAtLeast is one of ${severities.join(', ')}`);
  if (filter.auditState !== undefined && !['clean', 'unaudited'].includes(filter.auditState))
    throw new CuratorError('INVALID_ARGUMENT', 'auditState is clean or unaudited');
  where.push(...auditFilterSql(db, alias, filter));
  if (filter.name !== undefined) {
    where.push(`${alias}.name = ?`);
    params.push(String(filter.name));
  }
  return { where, params };
}

export function pageOf(
  limit: number | undefined,
  offset: number | undefined,
  max = 500,
): { limit: number; offset: number } {
  const l = limit ?? 50;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > max)
    throw new CuratorError('INVALID_ARGUMENT', `limit must be 1-${max}`);
  if (!Number.isInteger(o) || o < 0) throw new CuratorError('INVALID_ARGUMENT', 'offset must be 0 or more');
  return { limit: l, offset: o };
}
