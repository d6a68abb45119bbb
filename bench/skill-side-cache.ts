// The embedder's skill side built by one preset of a bench:selection run, kept in a file so that the next preset's
// process (a fresh sample library with the same skills) reads it instead of spending minutes of CPU building it again.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Db } from '../src/core/store/db';

interface CachedSkillSide {
  seconds: number;
  tokensPerCpuSecond: number;
  rows: Record<string, unknown>[];
}

/** The skill-side vectors another preset of this run built, written into this library (same sample skills). */
export function readSkillSideCache(db: Db, file: string): { seconds: number; tokensPerCpuSecond: number } {
  const c = JSON.parse(readFileSync(file, 'utf8')) as CachedSkillSide;
  const insert = db.prepare(
    `INSERT OR REPLACE INTO skill_side_vectors (skill_id, kind, model_id, dtype, dim, text_hash, updated_at, vector)
     VALUES (@skill_id, @kind, @model_id, @dtype, @dim, @text_hash, @updated_at, @vector)`,
  );
  db.transaction(() => {
    for (const r of c.rows) insert.run({ ...r, vector: Buffer.from(r.vector as string, 'base64') });
  })();
  return { seconds: c.seconds, tokensPerCpuSecond: c.tokensPerCpuSecond };
}

export function writeSkillSideCache(db: Db, file: string, seconds: number, tokensPerCpuSecond: number): void {
  const rows = (db.prepare('SELECT * FROM skill_side_vectors').all() as Record<string, unknown>[]).map(
    (r) => ({
      ...r,
      vector: (r.vector as Buffer).toString('base64'),
    }),
  );
  writeFileSync(file, JSON.stringify({ seconds, tokensPerCpuSecond, rows } satisfies CachedSkillSide));
}
