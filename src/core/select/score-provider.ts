// The edge between the selection and a CrossEncoder: each batch goes through the port under the instruction's text,
// and the truncation flag comes back so the trace can show where a cut fell. For a persistent cache, pass an encoder
// wrapped by models/score-cache (createCachedCrossEncoder): its keys include the instruction text and the budget.
import type { ScorerTier } from '../../shared/presets';
import type { CrossEncoder, ScorePair } from '../models/ports';
import { approxTokens } from './documents';
import type { Instruction } from './instructions';
import type { ScoreProvider, ScoreValue } from './scores';
import type { ScoreUse } from './trace-types';
import type { ThroughputMeter } from './throughput';

export interface CrossEncoderProviderOptions {
  /** Token budget for the whole prompt (settings.selection.crossEncoderMaxTokens). */
  maxTokens?: number;
  /** Budget per use, before maxTokens (settings.selection.crossEncoderAlignMaxTokens for align). */
  maxTokensByUse?: Partial<Record<ScoreUse, number>>;
  signal?: AbortSignal;
  /** Times the engine's work for the cost estimate (only batches that no cache answered in part). */
  meter?: ThroughputMeter;
  tier?: ScorerTier;
}

/** Prompt tokens of one pair, as the trace counts them (template + instruction + query + document, capped). */
export function pairTokens(instruction: string, pair: ScorePair, maxTokens: number): number {
  return Math.min(maxTokens, 40 + approxTokens(instruction + pair.query + pair.document));
}

export function crossEncoderScoreProvider(
  encoder: CrossEncoder,
  options: CrossEncoderProviderOptions = {},
): ScoreProvider {
  // A cached encoder (models/score-cache) counts its hits; time only batches it sent to the engine in full.
  const stats = (encoder as { stats?: unknown }).stats;
  const cacheStats =
    typeof stats === 'function' ? () => (stats as () => { hits: number }).call(encoder) : undefined;
  return {
    id: encoder.id,
    ...(encoder.weights ? { weights: encoder.weights } : {}),
    async score(
      instruction: Instruction,
      pairs: ScorePair[],
      onPairs?: (done: number) => void,
    ): Promise<ScoreValue[]> {
      const hitsBefore = cacheStats?.().hits ?? 0;
      const started = performance.now();
      const scores = await encoder.score(pairs, {
        instruction: instruction.text,
        maxTokens: options.maxTokensByUse?.[instruction.use] ?? options.maxTokens,
        signal: options.signal,
        onProgress: onPairs ? (p) => onPairs(p.done) : undefined,
      });
      if (options.meter && (cacheStats?.().hits ?? 0) === hitsBefore) {
        const budget = options.maxTokens ?? 1024;
        const tokens = pairs.reduce((sum, p) => sum + pairTokens(instruction.text, p, budget), 0);
        options.meter.add(
          options.tier ?? (encoder.engine === 'lexical' ? 'lexical' : 'cross-encoder'),
          encoder.id,
          tokens,
          performance.now() - started,
        );
      }
      return scores.map((s) => ({ r: s.r, truncated: s.truncated }));
    },
  };
}
