// The library an evaluation run ran on: skill count, digests over content and states, engines and settings, and per
// skill its content hash and states digest, so the skills edited between two runs are found exactly.
import { createHash } from 'node:crypto';
import type { EvalLibraryInfo } from '../../shared/api/evaluation';
import type { Db } from '../store/db';

export type { EvalLibraryInfo };

export interface SkillSnapshot {
  /** The name, or 'name (#id)' for a later skill of an already-seen name. */
  key: string;
  skillId: number;
  contentHash: string;
  statesHash: string;
}

const sha = (parts: unknown): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** Every skill's content hash and states digest, by name (duplicates keyed by name and id). */
export function currentSkillSnapshots(db: Db): SkillSnapshot[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.content_hash, st.precondition, st.completion
       FROM skills s LEFT JOIN skill_states st ON st.skill_id = s.id ORDER BY s.name, s.id`,
    )
    .all() as {
    id: number;
    name: string;
    content_hash: string;
    precondition: string | null;
    completion: string | null;
  }[];
  const seen = new Set<string>();
  return rows.map((r) => {
    const key = seen.has(r.name) ? `${r.name} (#${r.id})` : r.name;
    seen.add(r.name);
    return {
      key,
      skillId: r.id,
      contentHash: r.content_hash,
      statesHash: sha([r.precondition, r.completion]),
    };
  });
}

export interface LibraryContext {
  engines: EvalLibraryInfo['engines'];
  settings: Record<string, unknown>;
}

/** Records the library as it is now for a run (once: a resumed run keeps the library it started on). */
export function recordRunLibrary(db: Db, runId: number, context: LibraryContext, now: Date): void {
  const skills = currentSkillSnapshots(db);
  db.transaction(() => {
    const inserted = db
      .prepare(
        `INSERT OR IGNORE INTO eval_run_library
         (run_id, skill_count, content_digest, states_digest, engines, settings, captured_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        skills.length,
        sha(skills.map((s) => [s.key, s.contentHash])),
        sha(skills.map((s) => [s.key, s.statesHash])),
        JSON.stringify(context.engines),
        JSON.stringify(context.settings),
        now.toISOString(),
      );
    if (inserted.changes === 0) return;
    const insert = db.prepare(
      'INSERT INTO eval_run_skills (run_id, name, skill_id, content_hash, states_hash) VALUES (?, ?, ?, ?, ?)',
    );
    for (const s of skills) insert.run(runId, s.key, s.skillId, s.contentHash, s.statesHash);
  })();
}

/** null for a run recorded before libraries were (migration 033). */
export function getRunLibrary(db: Db, runId: number): EvalLibraryInfo | null {
  const r = db.prepare('SELECT * FROM eval_run_library WHERE run_id = ?').get(runId) as
    | {
        skill_count: number;
        content_digest: string;
        states_digest: string;
        engines: string;
        settings: string;
        captured_at: string;
      }
    | undefined;
  if (!r) return null;
  return {
    skillCount: r.skill_count,
    contentDigest: r.content_digest,
    statesDigest: r.states_digest,
    engines: JSON.parse(r.engines) as EvalLibraryInfo['engines'],
    settings: JSON.parse(r.settings) as Record<string, unknown>,
    capturedAt: r.captured_at,
  };
}

export function getRunSkills(db: Db, runId: number): Map<string, SkillSnapshot> {
  const rows = db
    .prepare('SELECT name, skill_id, content_hash, states_hash FROM eval_run_skills WHERE run_id = ?')
    .all(runId) as { name: string; skill_id: number; content_hash: string; states_hash: string }[];
  return new Map(
    rows.map((r) => [
      r.name,
      { key: r.name, skillId: r.skill_id, contentHash: r.content_hash, statesHash: r.states_hash },
    ]),
  );
}
