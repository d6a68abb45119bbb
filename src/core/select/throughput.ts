// Tokens per second observed per scoring engine: meters filled while a selection scores, a decayed sum in the
// library file, and the defaults assumed before any selection has been timed on this machine.
import { isQuantizedWeights, type ScorerTier } from '../../shared/presets';
import type { Db } from '../store/db';

export interface ThroughputSample {
  tier: ScorerTier;
  engine: string;
  tokens: number;
  ms: number;
}

/** Accumulates one engine's work during a selection. */
export class ThroughputMeter {
  private readonly by = new Map<string, ThroughputSample>();

  add(tier: ScorerTier, engine: string, tokens: number, ms: number): void {
    const key = `${tier}\u0001${engine}`;
    const s = this.by.get(key) ?? { tier, engine, tokens: 0, ms: 0 };
    s.tokens += tokens;
    s.ms += ms;
    this.by.set(key, s);
  }

  samples(): ThroughputSample[] {
    return [...this.by.values()];
  }
}

/**
 * Before any measurement. The cross-encoder figure is this project's measurement of the fp32 Qwen3-Reranker-0.6B
 * shape on a 2-core CPU (10,333 tokens in 139 s, issue 10); the embedder runs the same body without the LM head and
 * without a per-pair prompt; the lexical engine is bounded by SQLite reads.
 */
export const defaultTokensPerSecond: Record<ScorerTier, number> = {
  'cross-encoder': 75,
  embedder: 150,
  lexical: 2_000_000,
};

/**
 * An engine on quantised weights (its id ends `@q8`, models/onnx-engine-factory) before it has been timed: a whole
 * K = 30 selection ran 148 prompt tokens per CPU second on q8 against 74 on fp32 (docs/METHOD-notes.md, "Whole
 * selections per preset, and q8").
 */
export const quantizedSpeedup = 2;

const decay = 0.5;
/** Shorter samples are timer noise, not throughput (performance.now() resolves well below this). */
const minMs = 1;

export function recordThroughput(db: Db, samples: readonly ThroughputSample[], now: Date): void {
  const upsert = db.prepare(
    `INSERT INTO engine_throughput (engine_id, tier, tokens, seconds, samples, updated_at) VALUES (?, ?, ?, ?, 1, ?)
     ON CONFLICT(engine_id, tier) DO UPDATE SET tokens = tokens * ${decay} + excluded.tokens,
       seconds = seconds * ${decay} + excluded.seconds, samples = samples + 1, updated_at = excluded.updated_at`,
  );
  db.transaction(() => {
    for (const s of samples)
      if (s.ms >= minMs && s.tokens > 0)
        upsert.run(s.engine, s.tier, s.tokens, s.ms / 1000, now.toISOString());
  }).immediate();
}

export function tokensPerSecond(
  db: Db,
  tier: ScorerTier,
  engine: string,
): { tokensPerSecond: number; measured: boolean } {
  const row = db
    .prepare('SELECT tokens, seconds FROM engine_throughput WHERE engine_id = ? AND tier = ?')
    .get(engine, tier) as { tokens: number; seconds: number } | undefined;
  if (row && row.seconds > 0 && row.tokens > 0)
    return { tokensPerSecond: row.tokens / row.seconds, measured: true };
  const weights = engine.includes('@') ? engine.slice(engine.lastIndexOf('@') + 1) : undefined;
  return {
    tokensPerSecond: defaultTokensPerSecond[tier] * (isQuantizedWeights(weights) ? quantizedSpeedup : 1),
    measured: false,
  };
}
