// The bulk_changes rows (migration 022): one per bulk action of the Library, read back as the BulkChange the lasting
// Undo bar shows. A change's state_history rows carry its batch key: `bulk:<id>`, or the re-parse job's id.
import type { BulkChange, BulkChangeKind } from '../../shared/api/bulk';
import { CuratorError } from '../../shared/errors';
import { skillsWord } from '../../shared/trash-words';
import type { Db } from '../store/db';

export type TagPair = [skillId: number, tag: string];

export interface ChangeRow {
  id: number;
  kind: BulkChangeKind;
  job_id: string | null;
  skill_ids: string;
  tags: string;
  pairs: string;
  at: string;
  undone_at: string | null;
}

export function batchKey(row: Pick<ChangeRow, 'id' | 'job_id'>): string {
  return row.job_id ?? `bulk:${row.id}`;
}

/** Records a change and returns its id; the skills and pairs may be filled in by `fillChange` once known. */
export function insertChange(
  db: Db,
  at: string,
  change: { kind: BulkChangeKind; jobId?: string; skillIds?: number[]; tags?: string[] },
): number {
  const info = db
    .prepare('INSERT INTO bulk_changes (kind, job_id, skill_ids, tags, at) VALUES (?, ?, ?, ?, ?)')
    .run(
      change.kind,
      change.jobId ?? null,
      JSON.stringify(change.skillIds ?? []),
      JSON.stringify(change.tags ?? []),
      at,
    );
  return Number(info.lastInsertRowid);
}

/** What the change did, once done; a change that did nothing is dropped (there is nothing to undo). */
export function fillChange(db: Db, id: number, skillIds: number[], pairs: TagPair[] = []): BulkChange | null {
  if (skillIds.length === 0) {
    db.prepare('DELETE FROM bulk_changes WHERE id = ?').run(id);
    return null;
  }
  db.prepare('UPDATE bulk_changes SET skill_ids = ?, pairs = ? WHERE id = ?').run(
    JSON.stringify(skillIds),
    JSON.stringify(pairs),
    id,
  );
  return findChange(db, id);
}

export function changeRow(db: Db, id: number): ChangeRow {
  const row = db.prepare('SELECT * FROM bulk_changes WHERE id = ?').get(id) as ChangeRow | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No bulk change ${id}`);
  return row;
}

export function findChange(db: Db, id: number): BulkChange {
  return toChange(db, changeRow(db, id));
}

/** The newest change, while it can be undone: the Undo bar stays until the next bulk action, Undo or dismissal. */
export function lastChange(db: Db): BulkChange | null {
  const row = db.prepare('SELECT * FROM bulk_changes ORDER BY id DESC LIMIT 1').get() as
    ChangeRow | undefined;
  if (!row || row.undone_at !== null) return null;
  const change = toChange(db, row);
  return change.running || change.skillCount > 0 ? change : null;
}

/** The skills whose states the change wrote, each with its history rows of the change (oldest first). */
export function changedSkills(db: Db, row: ChangeRow): Map<number, { id: number; before: string | null }[]> {
  const rows = db
    .prepare('SELECT id, skill_id, before FROM state_history WHERE batch = ? ORDER BY id')
    .all(batchKey(row)) as { id: number; skill_id: number; before: string | null }[];
  const out = new Map<number, { id: number; before: string | null }[]>();
  for (const r of rows) out.set(r.skill_id, [...(out.get(r.skill_id) ?? []), { id: r.id, before: r.before }]);
  return out;
}

function isRunning(db: Db, jobId: string | null): boolean {
  if (jobId === null) return false;
  const status = db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(jobId) as string | undefined;
  return status === 'queued' || status === 'running';
}

function toChange(db: Db, row: ChangeRow): BulkChange {
  const running = isRunning(db, row.job_id);
  const asked = (JSON.parse(row.skill_ids) as number[]).length;
  const skillCount =
    row.kind === 'reparse'
      ? (db
          .prepare('SELECT COUNT(DISTINCT skill_id) FROM state_history WHERE batch = ?')
          .pluck()
          .get(batchKey(row)) as number)
      : asked;
  const tags = JSON.parse(row.tags) as string[];
  const quoted = tags.map((t) => `“${t}”`).join(', ');
  const label = {
    verify: `Verified ${skillsWord(skillCount)}`,
    'back-to-parsed': `Un-verified ${skillsWord(skillCount)}`,
    'tag-add': `Tagged ${skillsWord(skillCount)} ${quoted}`,
    'tag-remove': `Took ${quoted} off ${skillsWord(skillCount)}`,
    reparse: running ? `Re-parsing ${skillsWord(asked)}` : `Re-parsed ${skillsWord(skillCount)}`,
  }[row.kind];
  return {
    id: row.id,
    kind: row.kind,
    label,
    skillCount,
    tags,
    jobId: row.job_id,
    running,
    at: row.at,
    undoneAt: row.undone_at,
  };
}
