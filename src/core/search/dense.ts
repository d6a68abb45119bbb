// Dense recall (METHOD.md step 1): the K skills whose recall-text vector has the largest cosine with the query's.
// A binary coarse pass picks a shortlist, which is rescored exactly from the stored float vectors.
import { DEFAULT_RECALL_INSTRUCTION } from '../../shared/settings-schema';
import type { SkillFilter } from '../store/library-filter';
import { CuratorError } from '../../shared/errors';
import type { Embedder } from '../models/ports';
import type { Db } from '../store/db';
import { BinaryCoarseIndex } from './binary-coarse-index';
import { filteredSkillIds, hasFilters } from './skill-filter';
import { asFloat32 } from './vector-store';

export interface DenseCandidate {
  skillId: number;
  cosine: number;
}

export interface DenseOptions {
  /** The query instruction (settings.selection.recallInstruction). */
  instruction?: string;
  /** Vectors the coarse pass hands to exact rescoring; default max(512, 16 k). 0 or Infinity: exact over all. */
  shortlist?: number;
  signal?: AbortSignal;
}

export const defaultRecallInstruction = DEFAULT_RECALL_INSTRUCTION;

interface Cached {
  key: string;
  generation: number;
  index: BinaryCoarseIndex;
}
const coarseCache = new WeakMap<Db, Cached>();

function coarseIndex(db: Db, modelId: string, dim: number): BinaryCoarseIndex {
  const generation =
    (db.prepare('SELECT generation FROM vector_index_state WHERE id = 1').pluck().get() as
      number | undefined) ?? -1;
  const key = `${modelId}\u0000${dim}`;
  const hit = coarseCache.get(db);
  if (hit && hit.key === key && hit.generation === generation) return hit.index;
  const index = BinaryCoarseIndex.load(db, modelId, dim);
  coarseCache.set(db, { key, generation, index });
  return index;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Exact cosines of the given skills' vectors with q (unit vectors: cosine = dot product), best first. */
function rescore(
  db: Db,
  modelId: string,
  q: Float32Array,
  ids: readonly number[],
  k: number,
): DenseCandidate[] {
  // One statement for the whole shortlist: a read per id costs more in driver round trips than in SQLite.
  const rows = db
    .prepare(
      'SELECT skill_id, vector FROM skill_vectors WHERE skill_id IN (SELECT value FROM json_each(?)) AND model_id = ?',
    )
    .raw()
    .all(JSON.stringify(ids), modelId) as [number, Buffer][];
  const out: DenseCandidate[] = [];
  for (const [skillId, blob] of rows) {
    if (blob.byteLength === q.byteLength) out.push({ skillId, cosine: dot(asFloat32(blob), q) });
  }
  out.sort((a, b) => b.cosine - a.cosine || a.skillId - b.skillId);
  return out.slice(0, k);
}

/** K nearest skills to an already embedded query vector, by the coarse pass + exact rescoring. */
export function denseKnn(
  db: Db,
  modelId: string,
  q: Float32Array,
  k: number,
  filters: SkillFilter = {},
  shortlist?: number,
): DenseCandidate[] {
  if (k <= 0) return [];
  const index = coarseIndex(db, modelId, q.length);
  if (index.size === 0) {
    const any = db.prepare('SELECT model_id FROM skill_vectors LIMIT 1').pluck().get() as string | undefined;
    if (any !== undefined && any !== modelId) {
      throw new CuratorError(
        'UNAVAILABLE',
        `The vector index was made by ${any}; rebuild it for ${modelId} before dense search`,
        { indexModel: any, engine: modelId },
      );
    }
    return [];
  }
  const allowed = hasFilters(filters) ? filteredSkillIds(db, filters) : undefined;
  const size = shortlist === undefined ? Math.max(512, 16 * k) : shortlist <= 0 ? Infinity : shortlist;
  const ids = index.shortlist(q, Math.max(k, Math.min(size, index.size)), allowed);
  return rescore(db, modelId, q, ids, k);
}

/** Exact K nearest by a full scan (sqlite-vec's cosine distance over every stored vector): the reference for tests and benches. */
export function exactDenseKnn(db: Db, modelId: string, q: Float32Array, k: number): DenseCandidate[] {
  const rows = db
    .prepare(
      `SELECT skill_id AS skillId, 1 - vec_distance_cosine(vector, ?) AS cosine FROM skill_vectors
       WHERE model_id = ? AND dim = ? ORDER BY cosine DESC, skill_id LIMIT ?`,
    )
    .all(Buffer.from(q.buffer, q.byteOffset, q.byteLength), modelId, q.length, k) as DenseCandidate[];
  return rows;
}

export async function denseRecall(
  db: Db,
  embedder: Embedder,
  query: string,
  k: number,
  filters: SkillFilter = {},
  options: DenseOptions = {},
): Promise<DenseCandidate[]> {
  if (embedder.dim <= 0)
    throw new CuratorError('INVALID_ARGUMENT', `Engine ${embedder.id} makes no vectors; use lexical recall`);
  const [q] = await embedder.embed([query], {
    role: 'query',
    instruction: options.instruction ?? defaultRecallInstruction,
    signal: options.signal,
  });
  if (!q) throw new CuratorError('MODEL_ERROR', `Embedder ${embedder.id} returned no vector for the query`);
  return denseKnn(db, embedder.id, q, k, filters, options.shortlist);
}
