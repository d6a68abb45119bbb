// The skill side of the fast preset: each skill's document c_k, precondition p_k and completion e_k embedded once, as
// documents, and stored beside the vector index. Incremental (only texts whose hash, model or dtype changed are
// embedded), cancellable, and refreshed for the skills whose states change, so a selection embeds only the task side.
import { createHash } from 'node:crypto';
import { CuratorError } from '../../shared/errors';
import type { Embedder } from '../models/ports';
import { skillDocument } from '../select/documents';
import { loadSkillsForSelection } from '../select/skill-source';
import type { Db } from '../store/db';
import { asFloat32 } from './vector-store';

export type SkillSideKind = 'document' | 'precondition' | 'completion';

export interface SkillSideReport {
  embedded: number;
  unchanged: number;
  removed: number;
  cancelled: boolean;
}

export interface SkillSideOptions {
  /** The precision the vectors are made with, recorded beside them (settings.models.embedder.dtype). */
  dtype: string;
  /** Only these skills (a state edit); default: the whole library. */
  skillIds?: readonly number[];
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
}

export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The texts a selection scores against, exactly as the selection builds them: c_k = `name | description | body`,
 * p_k when the skill has one, and e_k (the description when the parse is missing: METHOD.md edge case).
 */
export function skillSideTexts(
  skill: ReturnType<typeof loadSkillsForSelection>[number],
): { kind: SkillSideKind; text: string }[] {
  const out: { kind: SkillSideKind; text: string }[] = [{ kind: 'document', text: skillDocument(skill) }];
  if (skill.states?.precondition) out.push({ kind: 'precondition', text: skill.states.precondition });
  out.push({ kind: 'completion', text: skill.states ? skill.states.completion : skill.description });
  return out;
}

interface Stored {
  kind: SkillSideKind;
  text_hash: string;
  model_id: string;
  dtype: string;
}

function unitVector(v: Float32Array, dim: number): Float32Array {
  if (v.length !== dim)
    throw new CuratorError('MODEL_ERROR', `Embedder returned ${v.length} values, expected ${dim}`);
  let n = 0;
  for (const x of v) n += x * x;
  if (!Number.isFinite(n) || n === 0)
    throw new CuratorError('MODEL_ERROR', 'Embedder returned a zero or non-finite vector');
  const s = 1 / Math.sqrt(n);
  return Math.abs(n - 1) < 1e-4 ? v : v.map((x) => x * s);
}

export async function updateSkillSide(
  db: Db,
  embedder: Embedder,
  options: SkillSideOptions,
): Promise<SkillSideReport> {
  const dim = embedder.dim;
  if (!Number.isInteger(dim) || dim <= 0)
    throw new CuratorError('INVALID_ARGUMENT', `Engine ${embedder.id} makes no vectors (dim ${dim})`);
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const batchSize = Math.max(1, options.batchSize ?? 16);
  const report: SkillSideReport = { embedded: 0, unchanged: 0, removed: 0, cancelled: false };

  // Vectors of another model or dtype are stale: drop them (the whole library) or those of the skills asked about.
  const scope = options.skillIds ? ' AND skill_id IN (SELECT value FROM json_each(?))' : '';
  const scopeArgs = options.skillIds ? [JSON.stringify(options.skillIds)] : [];
  report.removed += db
    .prepare(`DELETE FROM skill_side_vectors WHERE (model_id != ? OR dtype != ? OR dim != ?)${scope}`)
    .run(embedder.id, options.dtype, dim, ...scopeArgs).changes;

  const ids = options.skillIds ?? (db.prepare('SELECT id FROM skills ORDER BY id').pluck().all() as number[]);
  const stored = db.prepare(
    'SELECT kind, text_hash, model_id, dtype FROM skill_side_vectors WHERE skill_id = ?',
  );
  const drop = db.prepare('DELETE FROM skill_side_vectors WHERE skill_id = ? AND kind = ?');
  const todo: { skillId: number; kind: SkillSideKind; text: string; hash: string }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    for (const skill of loadSkillsForSelection(db, ids.slice(i, i + 500))) {
      const have = new Map((stored.all(skill.id) as Stored[]).map((r) => [r.kind, r.text_hash]));
      const want = skillSideTexts(skill);
      for (const { kind, text } of want) {
        const hash = textHash(text);
        if (have.get(kind) === hash) report.unchanged++;
        else todo.push({ skillId: skill.id, kind, text, hash });
      }
      for (const kind of have.keys())
        if (!want.some((w) => w.kind === kind)) report.removed += drop.run(skill.id, kind).changes;
    }
  }
  // Batches of similar length keep padding small.
  todo.sort((a, b) => a.text.length - b.text.length);
  const upsert = db.prepare(
    `INSERT INTO skill_side_vectors (skill_id, kind, model_id, dtype, dim, text_hash, updated_at, vector)
     SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM skills WHERE id = ?)
     ON CONFLICT(skill_id, kind) DO UPDATE SET model_id = excluded.model_id, dtype = excluded.dtype, dim = excluded.dim,
       text_hash = excluded.text_hash, updated_at = excluded.updated_at, vector = excluded.vector`,
  );
  options.onProgress?.(0, todo.length);
  for (let i = 0; i < todo.length; i += batchSize) {
    if (options.signal?.aborted) {
      report.cancelled = true;
      break;
    }
    const batch = todo.slice(i, i + batchSize);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(
        batch.map((w) => w.text),
        { role: 'document', signal: options.signal },
      );
    } catch (error) {
      if (options.signal?.aborted) {
        report.cancelled = true;
        break;
      }
      throw error;
    }
    const at = now();
    db.transaction(() => {
      batch.forEach((w, j) => {
        const v = unitVector(vectors[j]!, dim);
        const blob = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
        upsert.run(w.skillId, w.kind, embedder.id, options.dtype, dim, w.hash, at, blob, w.skillId);
      });
    }).immediate();
    report.embedded += batch.length;
    options.onProgress?.(report.embedded, todo.length);
  }
  return report;
}

/** Stored skill-side vectors of one model, by the hash of their text. */
export function skillSideLookup(
  db: Db,
  modelId: string,
  dtype: string,
): (texts: readonly string[]) => Map<string, Float32Array> {
  const read = db.prepare(
    'SELECT vector FROM skill_side_vectors WHERE model_id = ? AND dtype = ? AND text_hash = ? LIMIT 1',
  );
  return (texts) => {
    const out = new Map<string, Float32Array>();
    for (const text of texts) {
      const blob = read.pluck().get(modelId, dtype, textHash(text)) as Buffer | undefined;
      if (blob) out.set(text, asFloat32(blob));
    }
    return out;
  };
}

/** Share of the library whose skill side is stored for this model: 1 when every skill's document is. */
export function skillSideCoverage(db: Db, modelId: string, dtype: string): number {
  const skills = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  if (skills === 0) return 1;
  const have = db
    .prepare("SELECT count(*) FROM skill_side_vectors WHERE kind = 'document' AND model_id = ? AND dtype = ?")
    .pluck()
    .get(modelId, dtype) as number;
  return have / skills;
}

/** True when vectors of this model exist: worth keeping current on a state change. */
export function hasSkillSide(db: Db, modelId: string, dtype: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM skill_side_vectors WHERE model_id = ? AND dtype = ? LIMIT 1')
      .get(modelId, dtype) !== undefined
  );
}
