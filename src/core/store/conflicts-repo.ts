// Name conflicts found by imports: a pending row waits for the user; a resolved 'skip' row also remembers that choice,
// so re-importing the same content does not ask again.
import type { ConflictResolution, ParsedSkill } from '../skills/types';
import type { Db } from './db';
import { stmt } from './statements';
import { packText, unpackText } from './text-packing';

export interface ConflictRow {
  id: number;
  name: string;
  existingSkillId: number;
  sourceId: number;
  relPath: string;
  incoming: ParsedSkill;
  createdAt: string;
  resolvedAt: string | null;
  resolution: ConflictResolution | null;
}

const columns =
  'id, name, existing_skill_id AS existingSkillId, source_id AS sourceId, rel_path AS relPath, incoming, created_at AS createdAt, resolved_at AS resolvedAt, resolution';

function toRow(raw: unknown): ConflictRow | undefined {
  if (!raw) return undefined;
  const r = raw as Omit<ConflictRow, 'incoming'> & { incoming: string | Buffer };
  return { ...r, incoming: incomingFromJson(r.incoming) };
}

/**
 * The incoming skill as JSON with its text once (a body that ends the full text is stored as its length), packed
 * (text-packing.ts; SQL reads it with unpack_text(incoming)).
 */
export function incomingJson(skill: ParsedSkill): string | Buffer {
  return packText(incomingText(skill));
}

function incomingText(skill: ParsedSkill): string {
  if (!skill.fullText.endsWith(skill.body)) return JSON.stringify(skill);
  const { body, ...rest } = skill;
  return JSON.stringify({ ...rest, bodyLength: body.length });
}

/** Reads what incomingJson wrote, and rows written before it (plain JSON, with the body). */
export function incomingFromJson(stored: string | Buffer): ParsedSkill {
  const json = unpackText(stored)!;
  const { bodyLength, ...skill } = JSON.parse(json) as ParsedSkill & { bodyLength?: number };
  if (typeof bodyLength === 'number') skill.body = skill.fullText.slice(skill.fullText.length - bodyLength);
  return skill;
}

export function findConflict(db: Db, id: number): ConflictRow | undefined {
  return toRow(stmt(db, `SELECT ${columns} FROM import_conflicts WHERE id = ?`).get(id));
}

/** True when the user already chose to skip exactly this content at this place. */
export function skippedBefore(db: Db, sourceId: number, relPath: string, hash: string): boolean {
  return (
    stmt(
      db,
      `SELECT 1 FROM import_conflicts WHERE source_id = ? AND rel_path = ? AND resolution = 'skip' AND incoming_hash = ? LIMIT 1`,
    ).get(sourceId, relPath, hash) !== undefined
  );
}

export function recordConflict(
  db: Db,
  c: { name: string; existingSkillId: number; sourceId: number; relPath: string; incoming: ParsedSkill },
  now: string,
  resolution: ConflictResolution | null = null,
): number {
  const pendingId =
    resolution === null
      ? (stmt(
          db,
          'SELECT id FROM import_conflicts WHERE source_id = ? AND rel_path = ? AND resolved_at IS NULL ORDER BY id DESC LIMIT 1',
        )
          .pluck()
          .get(c.sourceId, c.relPath) as number | undefined)
      : undefined;
  if (pendingId !== undefined) {
    // A re-import asks the same question again: the row is rewritten only when something in it changed (compared
    // unpacked: inflating the stored row costs less than deflating the new one; it is packed only when written).
    stmt(
      db,
      `UPDATE import_conflicts SET name = @name, existing_skill_id = @existing, incoming = pack_text(@json),
         incoming_description = @description, incoming_hash = @hash, incoming_file_count = @fileCount,
         incoming_warnings = @warnings
       WHERE id = @id AND NOT (name = @name AND existing_skill_id = @existing AND unpack_text(incoming) = @json)`,
    ).run({
      name: c.name,
      existing: c.existingSkillId,
      json: incomingText(c.incoming),
      id: pendingId,
      ...summaryOf(c.incoming),
    });
    return pendingId;
  }
  const info = stmt(
    db,
    `INSERT INTO import_conflicts (name, existing_skill_id, source_id, rel_path, incoming, created_at, resolved_at,
       resolution, incoming_description, incoming_hash, incoming_file_count, incoming_warnings)
     VALUES (@name, @existing, @sourceId, @relPath, @incoming, @now, @resolvedAt, @resolution, @description, @hash,
       @fileCount, @warnings)`,
  ).run({
    name: c.name,
    existing: c.existingSkillId,
    sourceId: c.sourceId,
    relPath: c.relPath,
    incoming: incomingJson(c.incoming),
    now,
    resolvedAt: resolution ? now : null,
    resolution,
    ...summaryOf(c.incoming),
  });
  return Number(info.lastInsertRowid);
}

/** What a list of conflicts shows of the incoming skill, kept in columns of its own (migration 008). */
export function summaryOf(skill: ParsedSkill) {
  return {
    description: skill.description,
    hash: skill.contentHash,
    fileCount: skill.files.length,
    warnings: JSON.stringify(skill.warnings),
  };
}

export function markResolved(db: Db, id: number, resolution: ConflictResolution, now: string): void {
  stmt(db, 'UPDATE import_conflicts SET resolution = ?, resolved_at = ? WHERE id = ?').run(
    resolution,
    now,
    id,
  );
}

/** Pending conflicts of a place that now holds a skill, or that the source no longer has, are void. */
export function dropPendingAt(db: Db, sourceId: number, relPath: string): void {
  stmt(db, 'DELETE FROM import_conflicts WHERE source_id = ? AND rel_path = ? AND resolved_at IS NULL').run(
    sourceId,
    relPath,
  );
}

export function pendingConflictPlaces(db: Db, sourceId: number): { id: number; relPath: string }[] {
  return stmt(
    db,
    'SELECT id, rel_path AS relPath FROM import_conflicts WHERE source_id = ? AND resolved_at IS NULL',
  ).all(sourceId) as {
    id: number;
    relPath: string;
  }[];
}

/** Ids of the pending conflicts, of one incoming source or all, oldest first (no incoming text inflated). */
export function openConflictIds(db: Db, sourceId?: number): number[] {
  return (
    sourceId === undefined
      ? stmt(db, 'SELECT id FROM import_conflicts WHERE resolved_at IS NULL ORDER BY id').pluck().all()
      : stmt(db, 'SELECT id FROM import_conflicts WHERE resolved_at IS NULL AND source_id = ? ORDER BY id')
          .pluck()
          .all(sourceId)
  ) as number[];
}

/** A conflict as lists show it: the incoming skill's summary columns and the existing skill, nothing inflated. */
export interface ConflictSummaryRow extends Omit<ConflictRow, 'incoming'> {
  incomingDescription: string;
  incomingHash: string;
  incomingFileCount: number;
  incomingWarnings: string;
  existing: string | null;
}

export function listConflictSummaries(db: Db, opts: { pendingOnly: boolean }): ConflictSummaryRow[] {
  const where = opts.pendingOnly ? 'WHERE c.resolved_at IS NULL' : '';
  return stmt(
    db,
    `SELECT c.id, c.name, c.existing_skill_id AS existingSkillId, c.source_id AS sourceId, c.rel_path AS relPath,
       c.created_at AS createdAt, c.resolved_at AS resolvedAt, c.resolution,
       c.incoming_description AS incomingDescription, c.incoming_hash AS incomingHash,
       c.incoming_file_count AS incomingFileCount, c.incoming_warnings AS incomingWarnings,
       CASE WHEN s.id IS NULL THEN NULL ELSE json_object('id', s.id, 'name', s.name, 'description', s.description,
         'sourceId', s.source_id, 'relPath', s.rel_path, 'contentHash', s.content_hash) END AS existing
     FROM import_conflicts c LEFT JOIN skills s ON s.id = c.existing_skill_id ${where} ORDER BY c.id`,
  ).all() as ConflictSummaryRow[];
}
