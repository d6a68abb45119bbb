// Decides what one validated skill does to the library (add, update, keep, dedupe, conflict) and does it. Runs inside the
// caller's per-skill transaction, so a skill is either fully written (row, files, text index) or not at all.
import { dropPendingAt, recordConflict, skippedBefore } from '../store/conflicts-repo';
import type { Db } from '../store/db';
import {
  deleteSkill,
  findNameRival,
  findSkillAt,
  findSkillByHash,
  insertSkill,
  updateSkill,
  type SkillLocationRow,
} from '../store/skills-repo';
import type { OnConflict, ParsedSkill } from './types';

export type Placement =
  | { kind: 'added' | 'updated' | 'unchanged'; skillId: number | null }
  | { kind: 'duplicate'; existingSkillId: number }
  | {
      kind: 'conflict';
      conflictId: number;
      existingSkillId: number;
      resolution: OnConflict;
      written: 'added' | 'updated' | null;
    };

export function placeSkill(
  db: Db,
  sourceId: number,
  skill: ParsedSkill,
  onConflict: OnConflict,
  now: string,
): Placement {
  const here = findSkillAt(db, sourceId, skill.relPath);
  if (here && here.contentHash === skill.contentHash) return { kind: 'unchanged', skillId: here.id };
  if (!here && skippedBefore(db, sourceId, skill.relPath, skill.contentHash))
    return { kind: 'unchanged', skillId: null };
  if (!here) {
    const same = findSkillByHash(db, skill.contentHash);
    if (same) {
      dropPendingAt(db, sourceId, skill.relPath); // a conflict asked about other content here
      return { kind: 'duplicate', existingSkillId: same.id };
    }
  }
  // A place that already held this name keeps updating in place; a new name there, or a new place, may collide.
  const rival =
    here && here.name === skill.name
      ? undefined
      : findNameRival(db, skill.name, skill.contentHash, here?.id ?? null);
  if (!rival) return writeHere(db, sourceId, here, skill, now);
  const incoming = {
    name: skill.name,
    existingSkillId: rival.id,
    sourceId,
    relPath: skill.relPath,
    incoming: skill,
  };
  switch (onConflict) {
    case 'record':
      return {
        kind: 'conflict',
        conflictId: recordConflict(db, incoming, now),
        existingSkillId: rival.id,
        resolution: 'record',
        written: null,
      };
    case 'skip':
      return {
        kind: 'conflict',
        conflictId: recordConflict(db, incoming, now, 'skip'),
        existingSkillId: rival.id,
        resolution: 'skip',
        written: null,
      };
    case 'keep-both': {
      const placed = writeHere(db, sourceId, here, skill, now);
      const conflictId = recordConflict(db, incoming, now, 'keep-both');
      return {
        kind: 'conflict',
        conflictId,
        existingSkillId: rival.id,
        resolution: 'keep-both',
        written: placed.kind === 'updated' ? 'updated' : 'added',
      };
    }
    case 'replace': {
      const conflictId = recordConflict(db, incoming, now, 'replace');
      replaceRival(db, rival, sourceId, skill, now);
      return {
        kind: 'conflict',
        conflictId,
        existingSkillId: rival.id,
        resolution: 'replace',
        written: 'updated',
      };
    }
  }
}

export function writeHere(
  db: Db,
  sourceId: number,
  here: SkillLocationRow | undefined,
  skill: ParsedSkill,
  now: string,
): Placement {
  dropPendingAt(db, sourceId, skill.relPath);
  if (here) {
    updateSkill(db, here.id, skill, now);
    return { kind: 'updated', skillId: here.id };
  }
  return { kind: 'added', skillId: insertSkill(db, sourceId, skill, now) };
}

/**
 * The incoming skill takes the rival's id (so what later work attached to it stays attached) and moves to the incoming
 * place. The rival's old place remembers "skip this content", so re-importing the rival's source does not bring it back.
 */
export function replaceRival(
  db: Db,
  rival: SkillLocationRow,
  sourceId: number,
  skill: ParsedSkill,
  now: string,
  oldContent?: ParsedSkill,
): void {
  const previous = oldContent ?? readParsedSkill(db, rival.id);
  const occupant = findSkillAt(db, sourceId, skill.relPath);
  if (occupant && occupant.id !== rival.id) deleteSkill(db, occupant.id);
  dropPendingAt(db, sourceId, skill.relPath);
  updateSkill(db, rival.id, skill, now, { sourceId, relPath: skill.relPath });
  if (previous && (rival.sourceId !== sourceId || rival.relPath !== skill.relPath)) {
    recordConflict(
      db,
      {
        name: previous.name,
        existingSkillId: rival.id,
        sourceId: rival.sourceId,
        relPath: rival.relPath,
        incoming: previous,
      },
      now,
      'skip',
    );
  }
}

/** A stored skill as the importer would have built it (for remembering replaced content). */
export function readParsedSkill(db: Db, id: number): ParsedSkill | undefined {
  const row = db
    .prepare(
      'SELECT name, description, front_matter, body, full_text, rel_path, content_hash, warnings FROM skills WHERE id = ?',
    )
    .get(id) as
    | {
        name: string;
        description: string;
        front_matter: string;
        body: string;
        full_text: string;
        rel_path: string;
        content_hash: string;
        warnings: string;
      }
    | undefined;
  if (!row) return undefined;
  const files = db
    .prepare(
      'SELECT path, kind, size, sha256, is_text AS isText, text_content AS textContent FROM skill_files WHERE skill_id = ? ORDER BY path',
    )
    .all(id) as ParsedSkill['files'];
  return {
    name: row.name,
    description: row.description,
    frontMatter: JSON.parse(row.front_matter) as Record<string, unknown>,
    body: row.body,
    fullText: row.full_text,
    relPath: row.rel_path,
    files: files.map((f) => ({ ...f, isText: Boolean(f.isText) })),
    contentHash: row.content_hash,
    warnings: JSON.parse(row.warnings) as ParsedSkill['warnings'],
  };
}
