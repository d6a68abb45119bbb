// Storage of skill vectors: float32 rows in skill_vectors (the exact values) and their sign bits in a vec0 `bit[dim]`
// table per dimension (the coarse pass). Every write bumps vector_index_state.generation.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';

export interface StoredVector {
  skillId: number;
  modelId: string;
  dtype: string;
  textHash: string;
  vector: Float32Array;
}

export function bitsTable(dim: number): string {
  if (!Number.isInteger(dim) || dim <= 0 || dim % 8 !== 0)
    throw new Error(`vector dim ${dim} is not a positive multiple of 8`);
  return `skill_vec_bits_${dim}`;
}

export function ensureBitsTable(db: Db, dim: number): string {
  const name = bitsTable(dim);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(bits bit[${dim}])`);
  return name;
}

/** The coarse tables themselves, not vec0's shadow tables beside them. */
export function bitsTables(db: Db): string[] {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'skill_vec_bits_%'")
    .pluck()
    .all() as string[];
  return names.filter((n) => /^skill_vec_bits_\d+$/.test(n));
}

export function tableExists(db: Db, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
}

/** Sign bits, dimension i at bit (i % 8) of byte i / 8: the layout of sqlite-vec's vec_quantize_binary. */
export function signBits(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length >> 3);
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

export function asFloat32(blob: Buffer): Float32Array {
  // A Float32Array view needs 4-byte alignment; copy when the driver hands out an unaligned slice.
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2);
  return new Float32Array(new Uint8Array(blob).buffer);
}

function bumpGeneration(db: Db, now: string): void {
  db.prepare('UPDATE vector_index_state SET generation = generation + 1, updated_at = ? WHERE id = 1').run(
    now,
  );
}

/** Writes vectors (replacing any older ones of the same skills) in one transaction; skills deleted meanwhile are skipped. */
export function writeVectors(db: Db, rows: readonly StoredVector[], now: string): number {
  let written = 0;
  db.transaction(() => {
    const exists = db.prepare('SELECT 1 FROM skills WHERE id = ?').pluck();
    const upsert = db.prepare(
      `INSERT INTO skill_vectors (skill_id, model_id, dtype, dim, text_hash, l1, updated_at, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(skill_id) DO UPDATE SET model_id = excluded.model_id, dtype = excluded.dtype, dim = excluded.dim,
         text_hash = excluded.text_hash, l1 = excluded.l1, updated_at = excluded.updated_at, vector = excluded.vector`,
    );
    const tables = new Map<number, { del: Statement<unknown[]>; ins: Statement<unknown[]> }>();
    for (const r of rows) {
      if (exists.get(r.skillId) === undefined) continue;
      const dim = r.vector.length;
      let t = tables.get(dim);
      if (!t) {
        const name = ensureBitsTable(db, dim);
        t = {
          del: db.prepare(`DELETE FROM ${name} WHERE rowid = ?`),
          ins: db.prepare(`INSERT INTO ${name}(rowid, bits) VALUES (?, vec_bit(?))`),
        };
        tables.set(dim, t);
      }
      let l1 = 0;
      for (const x of r.vector) l1 += Math.abs(x);
      const blob = Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength);
      upsert.run(r.skillId, r.modelId, r.dtype, dim, r.textHash, l1, now, blob);
      // vec0 has no upsert; integer keys must be BigInt or vec0 reads them as floats and refuses them.
      t.del.run(BigInt(r.skillId));
      t.ins.run(BigInt(r.skillId), Buffer.from(signBits(r.vector)));
      written++;
    }
    bumpGeneration(db, now);
  }).immediate();
  return written;
}

/** Drops the coarse rows of skills that left the library (their skill_vectors rows went with them by cascade). */
export function removeOrphanBits(db: Db, now: string): number {
  const tables = bitsTables(db);
  let removed = 0;
  db.transaction(() => {
    for (const name of tables) {
      const orphans = db
        .prepare(`SELECT rowid FROM ${name} WHERE rowid NOT IN (SELECT skill_id FROM skill_vectors)`)
        .pluck()
        .all() as number[];
      const del = db.prepare(`DELETE FROM ${name} WHERE rowid = ?`);
      for (const id of orphans) del.run(BigInt(id));
      removed += orphans.length;
    }
    if (removed > 0) bumpGeneration(db, now);
  }).immediate();
  return removed;
}

/** Removes vectors made by any other model or dtype, and the coarse tables of other dimensions. */
export function removeOtherModels(db: Db, modelId: string, dtype: string, dim: number, now: string): number {
  let removed = 0;
  db.transaction(() => {
    removed = db
      .prepare('DELETE FROM skill_vectors WHERE model_id != ? OR dtype != ? OR dim != ?')
      .run(modelId, dtype, dim).changes;
    const keep = bitsTable(dim);
    const tables = bitsTables(db);
    for (const name of tables) if (name !== keep) db.exec(`DROP TABLE ${name}`);
    if (removed > 0) bumpGeneration(db, now);
  }).immediate();
  return removed;
}
