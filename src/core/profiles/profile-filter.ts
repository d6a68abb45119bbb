// A profile's filter: checked when saved, and turned into the skill ids it matches now.
import { CuratorError } from '../../shared/errors';
import type { ProfileFilter } from '../../shared/profiles';
import type { Db } from '../store/db';
import { filterSql } from '../store/library-filter';
import { isReviewStatus } from '../store/review-status';

const keys = new Set(['sourceId', 'status', 'hasErrors', 'hasWarnings', 'nameContains']);

/** The filter with only known, well-typed fields; a clear error for anything else. */
export function checkFilter(raw: unknown): ProfileFilter {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CuratorError('INVALID_ARGUMENT', 'A profile filter is an object');
  const f = raw as Record<string, unknown>;
  const unknown = Object.keys(f).filter((k) => !keys.has(k));
  if (unknown.length > 0)
    throw new CuratorError('INVALID_ARGUMENT', `Unknown filter field ${unknown.join(', ')}`);
  const out: ProfileFilter = {};
  if (f.sourceId !== undefined) {
    if (!Number.isInteger(f.sourceId)) throw new CuratorError('INVALID_ARGUMENT', 'sourceId is a number');
    out.sourceId = f.sourceId as number;
  }
  if (f.status !== undefined) {
    if (!isReviewStatus(f.status))
      throw new CuratorError('INVALID_ARGUMENT', `Unknown review status "${String(f.status)}"`);
    out.status = f.status;
  }
  for (const k of ['hasErrors', 'hasWarnings'] as const) {
    if (f[k] === undefined) continue;
    if (typeof f[k] !== 'boolean') throw new CuratorError('INVALID_ARGUMENT', `${k} is true or false`);
    out[k] = f[k];
  }
  if (f.nameContains !== undefined) {
    if (typeof f.nameContains !== 'string' || f.nameContains.trim() === '')
      throw new CuratorError('INVALID_ARGUMENT', 'nameContains is a non-empty text');
    out.nameContains = f.nameContains.trim();
  }
  if (Object.keys(out).length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'A profile filter needs at least one condition');
  return out;
}

export function skillIdsMatching(db: Db, filter: ProfileFilter): number[] {
  const { nameContains, ...rest } = filter;
  const { where, params } = filterSql(db, 's', rest);
  if (nameContains !== undefined) {
    where.push('instr(lower(s.name), lower(?)) > 0');
    params.push(nameContains);
  }
  const sql = `SELECT s.id FROM skills s ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  return db
    .prepare(sql)
    .pluck()
    .all(...params) as number[];
}
