// A preset's scorer: one ScoreProvider per use of r (alignment, relevance, stage fit), each named in the trace.
import type { ScorerRef, ScorerTier, SelectionPreset } from '../../shared/presets';
import { presetTiers } from '../../shared/presets';
import { instructions, type Instruction } from './instructions';
import type { ScoreProvider, ScoreValue } from './scores';
import type { ScoreUse } from './trace-types';

export interface PresetScorer extends ScoreProvider {
  readonly preset: SelectionPreset;
}

/** Routes each use to the provider of its tier; `providers` holds one per tier the preset uses. */
export function presetScorer(
  preset: SelectionPreset,
  providers: Partial<Record<ScorerTier, ScoreProvider>>,
): PresetScorer {
  const tiers = presetTiers[preset];
  const forUse = (use: ScoreUse): { tier: ScorerTier; provider: ScoreProvider } => {
    const tier = tiers[use];
    const provider = providers[tier];
    if (!provider) throw new Error(`The ${preset} preset needs a ${tier} scorer for ${use}`);
    return { tier, provider };
  };
  const relevance = forUse('relevance');
  return {
    preset,
    // The trace's models.crossEncoder: the engine behind rho.
    id: relevance.provider.id,
    instructionFor: (use) => forUse(use).provider.instructionFor?.(use) ?? instructions[use],
    scorerFor: (use) => {
      const { tier, provider } = forUse(use);
      const ref: ScorerRef = provider.scorerFor?.(use) ?? {
        // The cross-encoder slot may hold the lexical engine (ids `lexical:*`, models/ports.ts).
        tier: provider.id.startsWith('lexical:') ? 'lexical' : tier,
        engine: provider.id,
        instruction: (provider.instructionFor?.(use) ?? instructions[use]).version,
        ...(provider.weights ? { weights: provider.weights } : {}),
      };
      return ref;
    },
    score(instruction: Instruction, pairs, onPairs): Promise<ScoreValue[]> {
      return forUse(instruction.use).provider.score(instruction, pairs, onPairs);
    },
  };
}
