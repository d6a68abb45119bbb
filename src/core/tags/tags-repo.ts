// Tags on skills: stored lower-case and trimmed, so "Household" and "household " are one tag.
import type { TagCount } from '../../shared/api/tags';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';

const longestTag = 60;

/** A tag as stored; a clear error for one that is empty, too long or has a comma (the CLI's separator). */
export function normaliseTag(raw: unknown): string {
  if (typeof raw !== 'string') throw new CuratorError('INVALID_ARGUMENT', 'A tag must be text');
  const tag = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  if (tag === '') throw new CuratorError('INVALID_ARGUMENT', 'A tag cannot be empty');
  if (tag.length > longestTag)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `The tag "${tag.slice(0, 20)}…" is longer than ${longestTag} characters`,
    );
  if (tag.includes(',')) throw new CuratorError('INVALID_ARGUMENT', `A tag cannot hold a comma ("${tag}")`);
  return tag;
}

function checkIds(db: Db, skillIds: unknown): number[] {
  if (!Array.isArray(skillIds) || skillIds.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Give the ids of the skills to tag (skillIds)');
  const ids = [...new Set(skillIds)];
  for (const id of ids)
    if (!Number.isInteger(id))
      throw new CuratorError('INVALID_ARGUMENT', `"${String(id)}" is not a skill id`);
  const found = db
    .prepare('SELECT id FROM skills WHERE id IN (SELECT value FROM json_each(?))')
    .pluck()
    .all(JSON.stringify(ids)) as number[];
  const missing = ids.filter((id) => !found.includes(id as number));
  if (missing.length) throw new CuratorError('NOT_FOUND', `No skill ${missing.join(', ')}`);
  return ids as number[];
}

function checkTags(tags: unknown): string[] {
  if (!Array.isArray(tags) || tags.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Give at least one tag');
  return [...new Set(tags.map(normaliseTag))];
}

/** Puts the tags on the skills; returns how many (skill, tag) pairs are new. */
export function addTags(db: Db, skillIds: unknown, tags: unknown): number {
  const list = checkTags(tags);
  return db
    .transaction(() => {
      const ids = checkIds(db, skillIds);
      const insert = db.prepare('INSERT OR IGNORE INTO skill_tags (skill_id, tag) VALUES (?, ?)');
      let added = 0;
      for (const id of ids) for (const tag of list) added += insert.run(id, tag).changes;
      return added;
    })
    .immediate();
}

/** Takes the tags off the skills; returns how many (skill, tag) pairs went. */
export function removeTags(db: Db, skillIds: unknown, tags: unknown): number {
  const list = checkTags(tags);
  return db
    .transaction(() => {
      const ids = checkIds(db, skillIds);
      const remove = db.prepare('DELETE FROM skill_tags WHERE skill_id = ? AND tag = ?');
      let removed = 0;
      for (const id of ids) for (const tag of list) removed += remove.run(id, tag).changes;
      return removed;
    })
    .immediate();
}

/** Every tag in the library with how many skills carry it, by name. */
export function listTags(db: Db): TagCount[] {
  return db
    .prepare('SELECT tag, COUNT(*) AS skills FROM skill_tags GROUP BY tag ORDER BY tag')
    .all() as TagCount[];
}

/** The tags of each given skill (skills without tags are absent). */
export function tagsOf(db: Db, skillIds: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (skillIds.length === 0) return out;
  const rows = db
    .prepare(
      'SELECT skill_id AS skillId, tag FROM skill_tags WHERE skill_id IN (SELECT value FROM json_each(?)) ORDER BY tag',
    )
    .all(JSON.stringify(skillIds)) as { skillId: number; tag: string }[];
  for (const r of rows) out.set(r.skillId, [...(out.get(r.skillId) ?? []), r.tag]);
  return out;
}
