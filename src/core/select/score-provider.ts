// The edge between the selection and a CrossEncoder: each batch goes through the port under the instruction's text,
// and the truncation flag comes back so the trace can show where a cut fell. For a persistent cache, pass an encoder
// wrapped by models/score-cache (createCachedCrossEncoder): its keys include the instruction text and the budget.
import type { CrossEncoder, ScorePair } from '../models/ports';
import type { Instruction } from './instructions';
import type { ScoreProvider, ScoreValue } from './scores';
import type { ScoreUse } from './trace-types';

export interface CrossEncoderProviderOptions {
  /** Token budget for the whole prompt (settings.selection.crossEncoderMaxTokens). */
  maxTokens?: number;
  /** Budget per use, before maxTokens (settings.selection.crossEncoderAlignMaxTokens for align). */
  maxTokensByUse?: Partial<Record<ScoreUse, number>>;
  signal?: AbortSignal;
}

export function crossEncoderScoreProvider(
  encoder: CrossEncoder,
  options: CrossEncoderProviderOptions = {},
): ScoreProvider {
  return {
    id: encoder.id,
    async score(instruction: Instruction, pairs: ScorePair[]): Promise<ScoreValue[]> {
      const scores = await encoder.score(pairs, {
        instruction: instruction.text,
        maxTokens: options.maxTokensByUse?.[instruction.use] ?? options.maxTokens,
        signal: options.signal,
      });
      return scores.map((s) => ({ r: s.r, truncated: s.truncated }));
    },
  };
}
