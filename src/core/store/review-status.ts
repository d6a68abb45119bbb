// The review status of a skill as SQL. The table that holds it (skill_states) comes with a later migration; until it exists
// every skill is 'unparsed', and a skill without a row is 'unparsed' too.
import type { Db } from './db';

export const reviewStatuses = ['unparsed', 'parsed', 'failed', 'edited', 'verified'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

const statusSql = new WeakMap<Db, string>();

/** An SQL expression giving the status of the skill whose id is `${alias}.id`. */
export function reviewStatusSql(db: Db, alias: string): string {
  let template = statusSql.get(db);
  if (template === undefined) {
    const hasTable =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'skill_states'").get() !==
      undefined;
    const columns = hasTable
      ? new Set(
          (db.prepare('PRAGMA table_info(skill_states)').all() as { name: string }[]).map((c) => c.name),
        )
      : new Set();
    template =
      columns.has('skill_id') && columns.has('status')
        ? "COALESCE((SELECT st.status FROM skill_states st WHERE st.skill_id = $.id LIMIT 1), 'unparsed')"
        : "'unparsed'";
    statusSql.set(db, template);
  }
  return template.replaceAll('$', alias);
}

export function isReviewStatus(value: unknown): value is ReviewStatus {
  return typeof value === 'string' && (reviewStatuses as readonly string[]).includes(value);
}
