// Applies the library filters (store/library-filter: the same ones keyword search uses) to dense and hybrid results,
// and loads the summary rows search results show.
import type { Db } from '../store/db';
import { filterSql, type SkillFilter } from '../store/library-filter';
import { summaryColumns, type SkillSummary } from '../store/library-repo';

export function hasFilters(filter: SkillFilter = {}): boolean {
  return Object.values(filter).some((v) => v !== undefined);
}

/** The filter as one SQL condition over alias `s` ('1' when empty), with its parameters. */
export function filterCondition(db: Db, filter: SkillFilter = {}): { where: string; params: unknown[] } {
  const { where, params } = filterSql(db, 's', filter);
  return { where: where.length ? where.join(' AND ') : '1', params };
}

/** Ids of the skills that pass the filter. */
export function filteredSkillIds(db: Db, filter: SkillFilter): Set<number> {
  const f = filterCondition(db, filter);
  return new Set(
    db
      .prepare(`SELECT s.id FROM skills s WHERE ${f.where}`)
      .pluck()
      .all(...f.params) as number[],
  );
}

/** Summaries (as library lists show them) of the given skills, by id; ids no longer in the library are absent. */
export function skillSummaries(db: Db, ids: readonly number[]): Map<number, SkillSummary> {
  const out = new Map<number, SkillSummary>();
  if (ids.length === 0) return out;
  const rows = db
    .prepare(`SELECT ${summaryColumns(db)} FROM skills s WHERE s.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as SkillSummary[];
  for (const r of rows) out.set(r.id, r);
  return out;
}
