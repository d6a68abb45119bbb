// Builds and reports the vector index of recall texts m_k = `name | description`: incremental (only new or changed
// skills are embedded), resumable (every batch is committed, so a rerun continues where a crash stopped), cancellable.
import { createHash } from 'node:crypto';
import { CuratorError } from '../../shared/errors';
import type { JobProgress } from '../../shared/jobs';
import type { Embedder } from '../models/ports';
import { recallText } from '../select/documents';
import type { Db } from '../store/db';
import { removeOrphanBits, removeOtherModels, writeVectors, type StoredVector } from './vector-store';

export interface VectorIndexDeps {
  db: Db;
  /** The precision the vectors were made with (q8, fp16, ...), recorded with them; default: `embedder.dtype` or 'n/a'. */
  dtype?: string;
  /** Texts per embedder call; default 32. */
  batchSize?: number;
  now?: () => Date;
}

export interface IndexJob {
  signal: AbortSignal;
  report(p: JobProgress): void;
}

export interface VectorIndexReport {
  modelId: string;
  dtype: string;
  dim: number;
  embedded: number;
  unchanged: number;
  removed: number;
  cancelled: boolean;
}

export interface VectorIndexStatus {
  /** The model the index is for; null before the first build. */
  modelId: string | null;
  dtype: string | null;
  dim: number | null;
  skills: number;
  /** Skills whose vector matches their current recall text and the index's model. */
  indexed: number;
  /** Skills with no vector, or one made from an older text or by another model. */
  pending: number;
  /** The model asked about differs from the one that made the index: dense search needs a rebuild. */
  stale: boolean;
  staleReason?: string;
  /** A build started and did not finish (crashed or still running); building again resumes it. */
  building: boolean;
  updatedAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface StateRow {
  model_id: string;
  dtype: string;
  dim: number;
  building: number;
  updated_at: string;
}

function readState(db: Db): StateRow | undefined {
  return db
    .prepare('SELECT model_id, dtype, dim, building, updated_at FROM vector_index_state WHERE id = 1')
    .get() as StateRow | undefined;
}

interface Work {
  skillId: number;
  text: string;
  hash: string;
}

/** Skills whose vector is missing or was made from another text, model or dtype; and how many are current. */
function pendingWork(db: Db, modelId: string, dtype: string, dim: number): { todo: Work[]; current: number } {
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.description, v.text_hash AS hash, v.model_id AS model, v.dtype, v.dim
       FROM skills s LEFT JOIN skill_vectors v ON v.skill_id = s.id ORDER BY s.id`,
    )
    .all() as {
    id: number;
    name: string;
    description: string;
    hash: string | null;
    model: string | null;
    dtype: string | null;
    dim: number | null;
  }[];
  const todo: Work[] = [];
  let current = 0;
  for (const r of rows) {
    const text = recallText(r);
    const hash = sha256(text);
    if (r.hash === hash && r.model === modelId && r.dtype === dtype && r.dim === dim) current++;
    else todo.push({ skillId: r.id, text, hash });
  }
  return { todo, current };
}

function unit(v: Float32Array, skillId: number, dim: number): Float32Array {
  if (v.length !== dim)
    throw new CuratorError(
      'MODEL_ERROR',
      `Embedder returned ${v.length} values for skill ${skillId}, expected ${dim}`,
    );
  let n = 0;
  for (const x of v) n += x * x;
  if (!Number.isFinite(n) || n === 0)
    throw new CuratorError(
      'MODEL_ERROR',
      `Embedder returned a zero or non-finite vector for skill ${skillId}`,
    );
  const s = 1 / Math.sqrt(n);
  return Math.abs(n - 1) < 1e-4 ? v : v.map((x) => x * s);
}

export async function buildVectorIndex(
  deps: VectorIndexDeps,
  embedder: Embedder,
  job: IndexJob,
): Promise<VectorIndexReport> {
  const { db } = deps;
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const dim = embedder.dim;
  if (!Number.isInteger(dim) || dim <= 0 || dim % 8 !== 0) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Engine ${embedder.id} makes no vectors the index can hold (dim ${dim})`,
    );
  }
  const dtype = deps.dtype ?? (embedder as { dtype?: string }).dtype ?? 'n/a';
  const batchSize = Math.max(1, deps.batchSize ?? 32);
  const started = now();
  db.prepare(
    `INSERT INTO vector_index_state (id, model_id, dtype, dim, building, started_at, updated_at) VALUES (1, ?, ?, ?, 1, ?, ?)
     ON CONFLICT(id) DO UPDATE SET model_id = excluded.model_id, dtype = excluded.dtype, dim = excluded.dim, building = 1,
       started_at = excluded.started_at, updated_at = excluded.updated_at`,
  ).run(embedder.id, dtype, dim, started, started);

  const removed = removeOrphanBits(db, started);
  const { todo, current } = pendingWork(db, embedder.id, dtype, dim);
  // Batches of similar length keep padding small for the model engines.
  todo.sort((a, b) => a.text.length - b.text.length || a.skillId - b.skillId);
  const report: VectorIndexReport = {
    modelId: embedder.id,
    dtype,
    dim,
    embedded: 0,
    unchanged: current,
    removed,
    cancelled: false,
  };
  const t0 = Date.now();
  const progress = (message: string) =>
    job.report({
      done: report.embedded,
      total: todo.length,
      message,
      etaSeconds:
        report.embedded > 0
          ? ((Date.now() - t0) / 1000 / report.embedded) * (todo.length - report.embedded)
          : undefined,
      counters: { embedded: report.embedded, unchanged: current, removed },
    });
  progress(todo.length ? `Embedding ${todo.length} recall texts with ${embedder.id}` : 'Index is up to date');

  for (let i = 0; i < todo.length; i += batchSize) {
    if (job.signal.aborted) {
      report.cancelled = true;
      break;
    }
    const batch = todo.slice(i, i + batchSize);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(
        batch.map((w) => w.text),
        { role: 'document', signal: job.signal },
      );
    } catch (error) {
      if (job.signal.aborted) {
        report.cancelled = true;
        break;
      }
      throw error;
    }
    if (vectors.length !== batch.length)
      throw new CuratorError(
        'MODEL_ERROR',
        `Embedder returned ${vectors.length} vectors for ${batch.length} texts`,
      );
    const rows: StoredVector[] = batch.map((w, j) => ({
      skillId: w.skillId,
      modelId: embedder.id,
      dtype,
      textHash: w.hash,
      vector: unit(vectors[j]!, w.skillId, dim),
    }));
    writeVectors(db, rows, now());
    report.embedded += batch.length;
    progress(`Embedded ${report.embedded} of ${todo.length}`);
  }

  const finished = now();
  if (!report.cancelled) {
    report.removed += removeOtherModels(db, embedder.id, dtype, dim, finished);
    report.removed += removeOrphanBits(db, finished);
    db.prepare(
      'UPDATE vector_index_state SET building = 0, finished_at = ?, updated_at = ? WHERE id = 1',
    ).run(finished, finished);
  }
  return report;
}

/** Why the index does not fully serve engine `current` (none, another model or dtype, an unfinished build), or null. O(1). */
export function vectorIndexStaleReason(db: Db, current: { id: string; dtype?: string }): string | null {
  const state = readState(db);
  if (!state) return 'No index has been built yet';
  if (current.id !== state.model_id)
    return `Index was made by ${state.model_id}, the engine is ${current.id}`;
  if (current.dtype && current.dtype !== state.dtype) {
    return `Index was made with dtype ${state.dtype}, the engine uses ${current.dtype}`;
  }
  if (state.building === 1)
    return 'The last build of the index has not finished (still running, or stopped before the end)';
  return null;
}

/**
 * Where the index stands; with `current`, whether it was made by that model (and dtype) or needs a rebuild.
 * Hashes every recall text to count pending skills: ~0.1-0.2 s at 68k, so for status views, not for every search.
 */
export function vectorIndexStatus(db: Db, current?: { id: string; dtype?: string }): VectorIndexStatus {
  const state = readState(db);
  const skills = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  if (!state) {
    return {
      modelId: null,
      dtype: null,
      dim: null,
      skills,
      indexed: 0,
      pending: skills,
      stale: current !== undefined,
      staleReason: current ? 'No index has been built yet' : undefined,
      building: false,
      updatedAt: null,
    };
  }
  const { todo, current: indexed } = pendingWork(db, state.model_id, state.dtype, state.dim);
  const staleReason = current ? (vectorIndexStaleReason(db, current) ?? undefined) : undefined;
  return {
    modelId: state.model_id,
    dtype: state.dtype,
    dim: state.dim,
    skills,
    indexed,
    pending: todo.length,
    stale: staleReason !== undefined,
    staleReason,
    building: state.building === 1,
    updatedAt: state.updated_at,
  };
}
