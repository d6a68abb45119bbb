// Import sources: one row per folder, zip, file or dump, unique by its absolute path (their reports:
// import-reports-repo.ts).
import type { SourceKind } from '../skills/types';
import type { Db } from './db';

export interface SourceRow {
  id: number;
  kind: SourceKind;
  uri: string;
  label: string;
  /** The actions an agent can take where these skills run; the task-parsing prompt includes it. */
  environmentNote: string | null;
  createdAt: string;
  lastImportedAt: string | null;
}

const sourceColumns =
  'id, kind, uri, label, environment_note AS environmentNote, created_at AS createdAt, last_imported_at AS lastImportedAt';

/** The source row for a path, created on first import; a given label replaces the old one, no label keeps it. */
export function upsertSource(
  db: Db,
  kind: SourceKind,
  uri: string,
  label: string | null,
  defaultLabel: string,
  now: string,
): SourceRow {
  db.prepare(
    `INSERT INTO sources (kind, uri, label, created_at) VALUES (?, ?, COALESCE(?, ?), ?)
     ON CONFLICT(uri) DO UPDATE SET kind = excluded.kind, label = COALESCE(?, label)`,
  ).run(kind, uri, label, defaultLabel, now, label);
  return db.prepare(`SELECT ${sourceColumns} FROM sources WHERE uri = ?`).get(uri) as SourceRow;
}

export function findSource(db: Db, id: number): SourceRow | undefined {
  return db.prepare(`SELECT ${sourceColumns} FROM sources WHERE id = ?`).get(id) as SourceRow | undefined;
}

export function setSourceNote(db: Db, id: number, note: string | null): boolean {
  return db.prepare('UPDATE sources SET environment_note = ? WHERE id = ?').run(note, id).changes > 0;
}

export function markImported(db: Db, id: number, now: string): void {
  db.prepare('UPDATE sources SET last_imported_at = ? WHERE id = ?').run(now, id);
}

export function allSources(db: Db): SourceRow[] {
  return db.prepare(`SELECT ${sourceColumns} FROM sources ORDER BY id`).all() as SourceRow[];
}
