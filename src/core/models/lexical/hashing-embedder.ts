// A vector engine with no model: each stemmed term hashed to a pseudo-random +-1 vector, summed, L2-normalised.
// Deterministic and instant, it makes the vector index, dense search and their tests run anywhere; it knows no synonyms.
import { CuratorError } from '../../../shared/errors';
import type { EmbedOptions, Embedder } from '../ports';
import { terms } from './text-terms';

/** FNV-1a, 32 bits: stable across runs and platforms, unlike any built-in hash. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hashTerms(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (const t of terms(text)) {
    // Each term adds its own pseudo-random +-1 direction (random indexing): vectors come out dense, so their sign
    // bits carry information for the coarse pass, and cosines still track shared terms.
    let s = fnv1a(t) || 1;
    for (let i = 0; i < dim; i += 32) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      for (let b = 0; b < 32 && i + b < dim; b++) v[i + b]! += (s >>> b) & 1 ? 1 : -1;
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    // A text without terms still needs a unit vector; a fixed one keeps the result deterministic.
    v[0] = 1;
    return v;
  }
  const s = 1 / Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i]! *= s;
  return v;
}

export interface HashingEmbedderOptions {
  /** Vector length; default 256. */
  dim?: number;
}

/** The instruction of a query is ignored: hashed, its words would only add noise shared by every query. */
export function createHashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dim = options.dim ?? 256;
  if (!Number.isInteger(dim) || dim < 8 || dim % 8 !== 0)
    throw new CuratorError('INVALID_ARGUMENT', `Hashing embedder: dim must be a multiple of 8 (got ${dim})`);
  return {
    id: `lexical:hashing-${dim}`,
    engine: 'lexical',
    dim,
    async embed(texts: string[], options: EmbedOptions): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (const [i, text] of texts.entries()) {
        options.signal?.throwIfAborted();
        out.push(hashTerms(text, dim));
        options.onProgress?.({ done: i + 1, total: texts.length });
      }
      return out;
    },
  };
}
