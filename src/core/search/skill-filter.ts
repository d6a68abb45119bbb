// The library filters every search mode shares (source, review status, errors, warnings) as SQL over `skills s`,
// and the summary rows search results show. Review status lives in skill_states; a skill without a row is 'unparsed'.
import type { ReviewStatus, SkillFilters, SkillSummary } from '../../shared/api/library';
import type { Db } from '../store/db';

export interface FilterSql {
  /** A boolean SQL expression over alias `s` (skills); '1' when there is no filter. */
  where: string;
  params: (string | number)[];
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** SQL for the review status of `s`, whether or not skill_states exists yet. */
export function statusSql(db: Db): string {
  return hasTable(db, 'skill_states')
    ? "COALESCE((SELECT st.status FROM skill_states st WHERE st.skill_id = s.id), 'unparsed')"
    : "'unparsed'";
}

const issueOf = (severity: 'error' | 'warning') =>
  `EXISTS (SELECT 1 FROM json_each(s.warnings) w WHERE json_extract(w.value, '$.severity') = '${severity}')`;

export function skillFilterSql(db: Db, filters: SkillFilters = {}): FilterSql {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filters.sourceId !== undefined) {
    parts.push('s.source_id = ?');
    params.push(filters.sourceId);
  }
  if (filters.status !== undefined) {
    parts.push(`${statusSql(db)} = ?`);
    params.push(filters.status);
  }
  if (filters.hasErrors !== undefined)
    parts.push(filters.hasErrors ? issueOf('error') : `NOT ${issueOf('error')}`);
  if (filters.hasWarnings !== undefined)
    parts.push(filters.hasWarnings ? issueOf('warning') : `NOT ${issueOf('warning')}`);
  return { where: parts.length ? parts.join(' AND ') : '1', params };
}

export function hasFilters(filters: SkillFilters = {}): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/** Ids of the skills that pass the filters. */
export function filteredSkillIds(db: Db, filters: SkillFilters): Set<number> {
  const f = skillFilterSql(db, filters);
  const ids = db
    .prepare(`SELECT s.id FROM skills s WHERE ${f.where}`)
    .pluck()
    .all(...f.params) as number[];
  return new Set(ids);
}

/** Summaries of the given skills, keyed by id (missing ids are absent). */
export function skillSummaries(db: Db, ids: readonly number[]): Map<number, SkillSummary> {
  const out = new Map<number, SkillSummary>();
  if (ids.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.description, s.source_id AS sourceId, s.rel_path AS relPath, ${statusSql(db)} AS status,
              json_array_length(s.warnings) AS warningCount, s.updated_at AS updatedAt
       FROM skills s WHERE s.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as (Omit<SkillSummary, 'status'> & { status: string })[];
  for (const r of rows) out.set(r.id, { ...r, status: r.status as ReviewStatus });
  return out;
}
