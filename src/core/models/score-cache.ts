// Cross-encoder scores cached in the library file by (model, instruction version, sha256 of a, sha256 of b), so a pair
// scored once is never scored again by the same model under the same instruction.
import { createHash } from 'node:crypto';
import type { Db } from '../store/db';
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from './ports';

export interface ScoreCacheStats {
  hits: number;
  misses: number;
}

export interface CachedCrossEncoder extends CrossEncoder {
  readonly inner: CrossEncoder;
  /** Pairs answered from the cache and pairs sent to the inner engine, since creation. */
  stats(): ScoreCacheStats;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Wraps `inner`. The version key is `instructionVersion` plus a digest of the instruction text and the token budget:
 * bumping the version invalidates on purpose, and an instruction edited without a bump, or a new budget (which changes
 * what gets cut), still never reuses stale scores.
 */
export function createCachedCrossEncoder(
  inner: CrossEncoder,
  db: Db,
  instructionVersion: string,
  now: () => Date = () => new Date(),
): CachedCrossEncoder {
  const stats: ScoreCacheStats = { hits: 0, misses: 0 };
  const read = db.prepare(
    'SELECT r, truncated FROM score_cache WHERE model_id = ? AND instruction_version = ? AND a_hash = ? AND b_hash = ?',
  );
  const write = db.prepare(
    `INSERT INTO score_cache (model_id, instruction_version, a_hash, b_hash, r, truncated, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET r = excluded.r, truncated = excluded.truncated, created_at = excluded.created_at`,
  );
  return {
    id: inner.id,
    engine: inner.engine,
    ...(inner.weights ? { weights: inner.weights } : {}),
    inner,
    stats: () => ({ ...stats }),
    dispose: inner.dispose ? () => inner.dispose!() : undefined,
    async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
      const version = `${instructionVersion}#${sha256(`${options.instruction}\u0000${options.maxTokens ?? ''}`).slice(0, 16)}`;
      const out: (CrossScore | undefined)[] = new Array(pairs.length);
      // Distinct missing pairs, each with the positions it answers (a batch may repeat a pair).
      const missing = new Map<string, { pair: ScorePair; a: string; b: string; at: number[] }>();
      pairs.forEach((p, i) => {
        const a = sha256(p.query);
        const b = sha256(p.document);
        const row = read.get(inner.id, version, a, b) as { r: number; truncated: number } | undefined;
        if (row) {
          out[i] = { r: row.r, truncated: row.truncated === 1 };
          stats.hits++;
          return;
        }
        const key = `${a}:${b}`;
        const m = missing.get(key);
        if (m) m.at.push(i);
        else missing.set(key, { pair: p, a, b, at: [i] });
      });
      const todo = [...missing.values()];
      stats.misses += todo.length;
      if (todo.length > 0) {
        const hitCount = pairs.length - todo.reduce((n, m) => n + m.at.length, 0);
        const scores = await inner.score(
          todo.map((m) => m.pair),
          {
            ...options,
            onProgress:
              options.onProgress &&
              ((p) => options.onProgress!({ done: hitCount + p.done, total: hitCount + p.total })),
          },
        );
        const at = now().toISOString();
        db.transaction(() => {
          todo.forEach((m, j) => {
            const s = scores[j]!;
            write.run(inner.id, version, m.a, m.b, s.r, s.truncated ? 1 : 0, at);
            for (const i of m.at) out[i] = s;
          });
        }).immediate();
      } else options.onProgress?.({ done: pairs.length, total: pairs.length });
      return out as CrossScore[];
    },
  };
}
