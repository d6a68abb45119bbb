// Rows of the sync tables: Git sources, folder watches, pending updates a watch saw, and changes to reviewed skills.
import type { SourceSync } from '../../shared/api';
import type { Db } from '../store/db';
import type { GitLocation } from './git-fetch';

export interface GitSourceRow extends GitLocation {
  sourceId: number;
  cacheDir: string;
  commit: string | null;
  usesToken: boolean;
  checkedAt: string | null;
}

export function saveGitSource(db: Db, row: Omit<GitSourceRow, 'checkedAt'>, now: string): void {
  db.prepare(
    `INSERT INTO git_sources (source_id, url, ref, subdir, cache_dir, commit_oid, uses_token, checked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(source_id) DO UPDATE SET url = excluded.url, ref = excluded.ref, subdir = excluded.subdir,
       cache_dir = excluded.cache_dir, commit_oid = excluded.commit_oid, uses_token = excluded.uses_token,
       checked_at = excluded.checked_at`,
  ).run(row.sourceId, row.url, row.ref, row.subdir, row.cacheDir, row.commit, row.usesToken ? 1 : 0, now);
}

export function findGitSource(db: Db, sourceId: number): GitSourceRow | undefined {
  const row = db
    .prepare(
      `SELECT source_id AS sourceId, url, ref, subdir, cache_dir AS cacheDir, commit_oid AS "commit",
              uses_token AS usesToken, checked_at AS checkedAt FROM git_sources WHERE source_id = ?`,
    )
    .get(sourceId) as (Omit<GitSourceRow, 'usesToken'> & { usesToken: number }) | undefined;
  return row ? { ...row, usesToken: row.usesToken === 1 } : undefined;
}

export function markGitChecked(db: Db, sourceId: number, now: string, commit?: string): void {
  if (commit)
    db.prepare('UPDATE git_sources SET checked_at = ?, commit_oid = ? WHERE source_id = ?').run(
      now,
      commit,
      sourceId,
    );
  else db.prepare('UPDATE git_sources SET checked_at = ? WHERE source_id = ?').run(now, sourceId);
}

export function setWatched(db: Db, sourceId: number, watched: boolean, now: string): void {
  if (watched)
    db.prepare('INSERT OR IGNORE INTO source_watches (source_id, created_at) VALUES (?, ?)').run(
      sourceId,
      now,
    );
  else db.prepare('DELETE FROM source_watches WHERE source_id = ?').run(sourceId);
}

export function watchedSources(db: Db): { sourceId: number; uri: string }[] {
  return db
    .prepare(
      "SELECT w.source_id AS sourceId, s.uri FROM source_watches w JOIN sources s ON s.id = w.source_id WHERE s.kind = 'folder'",
    )
    .all() as { sourceId: number; uri: string }[];
}

export function setPending(
  db: Db,
  sourceId: number,
  counts: { added: number; changed: number; removed: number } | null,
  now: string,
): void {
  if (!counts || counts.added + counts.changed + counts.removed === 0) {
    db.prepare('DELETE FROM pending_updates WHERE source_id = ?').run(sourceId);
    return;
  }
  db.prepare(
    `INSERT INTO pending_updates (source_id, added, changed, removed, detected_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(source_id) DO UPDATE SET added = excluded.added, changed = excluded.changed,
       removed = excluded.removed, detected_at = excluded.detected_at`,
  ).run(sourceId, counts.added, counts.changed, counts.removed, now);
}

export function syncInfo(db: Db, sourceId: number): SourceSync {
  const git = findGitSource(db, sourceId);
  const watched = db.prepare('SELECT 1 FROM source_watches WHERE source_id = ?').get(sourceId) !== undefined;
  const pending = db
    .prepare(
      'SELECT added, changed, removed, detected_at AS detectedAt FROM pending_updates WHERE source_id = ?',
    )
    .get(sourceId) as SourceSync['pending'] | undefined;
  return {
    sourceId,
    git: git
      ? {
          url: git.url,
          ref: git.ref,
          subdir: git.subdir,
          commit: git.commit,
          usesToken: git.usesToken,
          checkedAt: git.checkedAt,
        }
      : null,
    watched,
    pending: pending ?? null,
  };
}

export function allSyncInfo(db: Db): SourceSync[] {
  const ids = db.prepare('SELECT id FROM sources ORDER BY id').all() as { id: number }[];
  return ids.map(({ id }) => syncInfo(db, id));
}

export function recordSkillChange(
  db: Db,
  skillId: number,
  beforeText: string,
  afterText: string,
  reviewStatus: string,
  now: string,
): void {
  db.prepare(
    'INSERT INTO skill_changes (skill_id, before_text, after_text, review_status, changed_at) VALUES (?, ?, ?, ?, ?)',
  ).run(skillId, beforeText, afterText, reviewStatus, now);
}

export interface SkillChangeRow {
  skillId: number;
  beforeText: string;
  afterText: string;
  reviewStatus: string;
  changedAt: string;
}

/** Undismissed changes of a skill, oldest first: the diff runs from the first one's before to the last one's after. */
export function openSkillChanges(db: Db, skillId: number): SkillChangeRow[] {
  return db
    .prepare(
      `SELECT skill_id AS skillId, before_text AS beforeText, after_text AS afterText, review_status AS reviewStatus,
              changed_at AS changedAt FROM skill_changes WHERE skill_id = ? AND dismissed_at IS NULL ORDER BY id`,
    )
    .all(skillId) as SkillChangeRow[];
}

export function dismissSkillChanges(db: Db, skillId: number, now: string): number {
  return db
    .prepare('UPDATE skill_changes SET dismissed_at = ? WHERE skill_id = ? AND dismissed_at IS NULL')
    .run(now, skillId).changes;
}
