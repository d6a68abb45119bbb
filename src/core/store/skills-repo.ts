// Writes and looks up skills with their package files; callers wrap each skill in one transaction. The full-text index
// follows the rows through triggers (text-index-triggers.ts): a skill with reference text is written paused and
// indexed once, when its files are in. The full text is written packed (text-packing.ts) into full_text_stored.
import type { ParsedSkill, ValidationIssue } from '../skills/types';
import type { Db } from './db';
import { deferredIndexing } from './deferred-indexing';
import { stmt } from './statements';
import { packFor } from './text-packing';

export interface SkillLocationRow {
  id: number;
  name: string;
  relPath: string;
  contentHash: string;
  sourceId: number;
}

const locationColumns = 'id, name, rel_path AS relPath, content_hash AS contentHash, source_id AS sourceId';

export function findSkillAt(db: Db, sourceId: number, relPath: string): SkillLocationRow | undefined {
  return stmt(
    db,
    `SELECT ${locationColumns} FROM skills INDEXED BY skills_source_place WHERE source_id = ? AND rel_path = ?`,
  ).get(sourceId, relPath) as SkillLocationRow | undefined;
}

export function findSkillById(db: Db, id: number): SkillLocationRow | undefined {
  return stmt(db, `SELECT ${locationColumns} FROM skills WHERE id = ?`).get(id) as
    SkillLocationRow | undefined;
}

export function findSkillByHash(db: Db, hash: string): SkillLocationRow | undefined {
  return stmt(db, `SELECT ${locationColumns} FROM skills WHERE content_hash = ? ORDER BY id LIMIT 1`).get(
    hash,
  ) as SkillLocationRow | undefined;
}

/** The oldest other skill with this name and different content: the one an incoming skill would be confused with. */
export function findNameRival(
  db: Db,
  name: string,
  hash: string,
  exceptId: number | null,
): SkillLocationRow | undefined {
  return stmt(
    db,
    `SELECT ${locationColumns} FROM skills WHERE name = ? AND content_hash != ? AND id != ? ORDER BY id LIMIT 1`,
  ).get(name, hash, exceptId ?? -1) as SkillLocationRow | undefined;
}

export function skillsOfSource(db: Db, sourceId: number): SkillLocationRow[] {
  return stmt(db, `SELECT ${locationColumns} FROM skills WHERE source_id = ? ORDER BY rel_path`).all(
    sourceId,
  ) as SkillLocationRow[];
}

/** The skills of a source at places not in `kept`, read row by row (a 68k source's rows are not all held at once). */
export function skillsOfSourceNotIn(db: Db, sourceId: number, kept: ReadonlySet<string>): SkillLocationRow[] {
  const rows = stmt(
    db,
    `SELECT ${locationColumns} FROM skills WHERE source_id = ? ORDER BY rel_path`,
  ).iterate(sourceId) as IterableIterator<SkillLocationRow>;
  const out: SkillLocationRow[] = [];
  for (const row of rows) if (!kept.has(row.relPath)) out.push(row);
  return out;
}

export function insertSkill(db: Db, sourceId: number, skill: ParsedSkill, now: string): number {
  const deferred = deferredIndexing(db);
  const paused = deferred || hasIndexedFiles(skill) ? 1 : 0;
  const info = stmt(
    db,
    `INSERT INTO skills (name, description, front_matter, body_own, body_start, full_text_stored, source_id, rel_path, content_hash, warnings, warning_count, source_digest, created_at, updated_at, index_paused)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    ...skillValues(skill),
    sourceId,
    skill.relPath,
    skill.contentHash,
    JSON.stringify(skill.warnings),
    skill.warnings.length,
    skill.sourceDigest ?? null,
    now,
    now,
    paused,
  );
  const id = Number(info.lastInsertRowid);
  writeFiles(db, id, skill);
  if (deferred) deferred.push(id);
  else if (paused) resumeIndexing(db, id);
  return id;
}

/** Replaces the content of skill `id` (and optionally moves it), keeping its id so later tables that point at it stay valid. */
export function updateSkill(
  db: Db,
  id: number,
  skill: ParsedSkill,
  now: string,
  moveTo?: { sourceId: number; relPath: string },
): void {
  // Paused while its files change when it has or had reference text; otherwise the update trigger reindexes it.
  const deferred = deferredIndexing(db);
  const paused = deferred || hasIndexedFiles(skill) || storedIndexedFiles(db, id) ? 1 : 0;
  stmt(
    db,
    `UPDATE skills SET name = ?, description = ?, front_matter = ?, body_own = ?, body_start = ?, full_text_stored = ?, content_hash = ?, warnings = ?, warning_count = ?, source_digest = ?, updated_at = ?,
       source_id = COALESCE(?, source_id), rel_path = COALESCE(?, rel_path), index_paused = ? WHERE id = ?`,
  ).run(
    ...skillValues(skill),
    skill.contentHash,
    JSON.stringify(skill.warnings),
    skill.warnings.length,
    skill.sourceDigest ?? null,
    now,
    moveTo?.sourceId ?? null,
    moveTo?.relPath ?? null,
    paused,
    id,
  );
  stmt(db, 'DELETE FROM skill_files WHERE skill_id = ?').run(id);
  writeFiles(db, id, skill);
  if (deferred) deferred.push(id);
  else if (paused) resumeIndexing(db, id);
}

/** Deletes the skill; its files go by cascade and its index entry by trigger. */
export function deleteSkill(db: Db, id: number): void {
  stmt(db, 'DELETE FROM skills WHERE id = ?').run(id);
}

/** Indexes a skill written paused (index_paused = 1), now that its files are in. */
export function resumeIndexing(db: Db, id: number): void {
  stmt(db, 'UPDATE skills SET index_paused = 0 WHERE id = ? AND index_paused != 0').run(id);
}

function hasIndexedFiles(skill: ParsedSkill): boolean {
  return skill.files.some((f) => f.textContent !== null);
}

function storedIndexedFiles(db: Db, id: number): boolean {
  return !!stmt(db, 'SELECT 1 FROM skill_files WHERE skill_id = ? AND text_content IS NOT NULL LIMIT 1').get(
    id,
  );
}

/**
 * The body is the end of the full text: stored as the offset where it starts (in characters, as SQLite counts
 * them), or as its own copy when it is not the end (or a NUL or a split surrogate pair would make the offset wrong).
 */
export function bodyStorage(fullText: string, body: string): { bodyOwn: string; bodyStart: number | null } {
  const first = body.charCodeAt(0);
  const splitsPair = first >= 0xdc00 && first <= 0xdfff;
  if (!fullText.endsWith(body) || fullText.includes('\0') || splitsPair)
    return { bodyOwn: body, bodyStart: null };
  let chars = 0;
  for (const _ of fullText.slice(0, fullText.length - body.length)) chars++;
  return { bodyOwn: '', bodyStart: chars };
}

function skillValues(skill: ParsedSkill): [string, string, string, string, number | null, string | Buffer] {
  const { bodyOwn, bodyStart } = bodyStorage(skill.fullText, skill.body);
  return [
    skill.name,
    skill.description,
    JSON.stringify(skill.frontMatter),
    bodyOwn,
    bodyStart,
    packFor(skill, skill.fullText),
  ];
}

function writeFiles(db: Db, id: number, skill: ParsedSkill): void {
  const insertFile = stmt(
    db,
    'INSERT INTO skill_files (skill_id, path, kind, size, sha256, is_text, text_content) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const f of skill.files)
    insertFile.run(id, f.path, f.kind, f.size, f.sha256, f.isText ? 1 : 0, f.textContent);
}

export interface StoredDigest {
  id: number;
  name: string;
  digest: string;
  warningCount: number;
}

/** The source digest of every skill of a source that has one, by place: what a re-import can skip unread. */
export function storedDigests(db: Db, sourceId: number): Map<string, StoredDigest> {
  const rows = stmt(
    db,
    `SELECT id, rel_path AS relPath, name, source_digest AS digest, warning_count AS warningCount
     FROM skills WHERE source_id = ? AND source_digest IS NOT NULL`,
  ).all(sourceId) as (StoredDigest & { relPath: string })[];
  return new Map(rows.map(({ relPath, ...d }) => [relPath, d]));
}

/** The warnings stored with a skill; those of a JSONL skill moved to the line it is on now. */
export function storedWarnings(db: Db, id: number, line?: number): ValidationIssue[] {
  const raw = stmt(db, 'SELECT warnings FROM skills WHERE id = ?').pluck().get(id) as string;
  const issues = JSON.parse(raw) as ValidationIssue[];
  return line === undefined ? issues : issues.map((i) => ({ ...i, line }));
}
