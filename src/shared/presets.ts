// Selection presets: which engine scores each use of r(a, b) (METHOD.md "Scorers"). The formulas never change; only
// the scorer behind r does. Shared so the settings schema, the API, the trace and the Selection lab name them alike.
import { localModelsPlace } from './settings-places';
import type { ScoreUse } from './trace';

export const selectionPresets = ['exact', 'fast', 'mixed', 'offline'] as const;
export type SelectionPreset = (typeof selectionPresets)[number];

/** The scorer families: the cross-encoder (reranker), the embedder's calibrated cosine, the lexical engine. */
export type ScorerTier = 'cross-encoder' | 'embedder' | 'lexical';

export const presetTiers: Record<SelectionPreset, Record<ScoreUse, ScorerTier>> = {
  exact: { align: 'cross-encoder', relevance: 'cross-encoder', 'stage-fit': 'cross-encoder' },
  fast: { align: 'embedder', relevance: 'embedder', 'stage-fit': 'embedder' },
  mixed: { align: 'embedder', relevance: 'cross-encoder', 'stage-fit': 'cross-encoder' },
  offline: { align: 'lexical', relevance: 'lexical', 'stage-fit': 'lexical' },
};

export const presetDescriptions: Record<SelectionPreset, string> = {
  exact:
    'Exact: the cross-encoder scores every pair (METHOD.md as written on fp32 weights; q8 weights, the CPU default where the export has them, are named in the trace; slowest)',
  fast: 'Fast: the embedder scores every pair by calibrated cosine (skill side embedded in the index)',
  mixed: 'Mixed: the embedder aligns states, the cross-encoder scores relevance and stage fit',
  offline: 'Offline: the lexical engines, no model needed',
};

/**
 * The offline preset's abstain threshold on the best candidate's rho (settings selection.abstainBelow.offline),
 * chosen on resources/no-fit-tasks.jsonl against false abstentions on the other sets (bench:offline).
 */
export const OFFLINE_ABSTAIN_BELOW = -0.7;

/** The abstain threshold a selection scored by `preset` uses: the lexical engine's when that is what scores rho. */
export function abstainThreshold(
  thresholds: Record<SelectionPreset, number | null>,
  preset: SelectionPreset,
  relevanceTier: ScorerTier | undefined,
): number | undefined {
  const effective = relevanceTier === 'lexical' ? 'offline' : preset;
  return thresholds[effective] ?? undefined;
}

/** r = scale * (cos - center): the embedder's cosine as log-odds. */
export interface EmbedderCalibration {
  scale: number;
  center: number;
  /** Where the numbers come from: the model's documented default, or Settings. */
  source: string;
}

/** Which scorer produced the scores of one use, as recorded in a trace. */
export interface ScorerRef {
  tier: ScorerTier;
  /** The engine's model id (or lexical:*). */
  engine: string;
  /** The instruction version the scorer was given for this use. */
  instruction: string;
  calibration?: EmbedderCalibration;
  /**
   * The precision of the model's weights (`fp32`, `q8`, …) when the engine has weights. METHOD.md's exact scores are
   * the fp32 model's; quantised weights are another model whose r differ (docs/METHOD-notes.md, "Whole selections per preset, and q8").
   */
  weights?: string;
}

/** Weights whose r are not the fp32 model's beyond rounding (int8/4-bit kernels). */
export function isQuantizedWeights(weights: string | undefined): boolean {
  return weights !== undefined && /^(q8|int8|uint8|q4|q4f16|bnb4)$/.test(weights);
}

/**
 * One plain line when a preset ran on weights other than fp32, for the trace's readers (CLI and lab); '' otherwise.
 * The exact preset is METHOD.md literally only on fp32 weights.
 */
export function weightsNote(scorers: Partial<Record<string, ScorerRef>> | undefined): string {
  const other = [
    ...new Set(
      Object.values(scorers ?? {})
        .map((s) => s?.weights)
        .filter((w): w is string => w !== undefined && w !== 'fp32'),
    ),
  ];
  if (other.length === 0) return '';
  const quantized = other.some(isQuantizedWeights);
  return quantized
    ? `${other.join(', ')} weights: quantised, so r differ from the fp32 model's (not METHOD.md's exact scores; set the model's dtype to fp32 for those)`
    : `${other.join(', ')} weights: r differ from the fp32 model's by rounding`;
}

/** One engine's share of a selection's estimated cost. */
export interface EngineCostEstimate {
  tier: ScorerTier;
  engine: string;
  pairs: number;
  /** Tokens the engine runs: prompts for a cross-encoder, task-side texts for the embedder. */
  tokens: number;
  tokensPerSecond: number;
  /** false: no selection has been timed on this engine yet; a default throughput is assumed. */
  measured: boolean;
  seconds: number;
}

export interface SelectionEstimate {
  preset: SelectionPreset;
  /** Upper bound of the distinct pairs the chosen variants can need (before the exact cuts). */
  pairs: number;
  tokens: number;
  seconds: number;
  engines: EngineCostEstimate[];
  candidates: number;
  /** States n the estimate assumes (the parse given, or a typical one). */
  states: number;
  notes: string[];
  /**
   * No parse was given, and the selection will use one stored for this exact task text: a hand parse a label set
   * gives it, one typed by hand earlier, or an earlier LLM parse.
   */
  storedParse?: StoredParseSource;
}

/** Where a stored task parse comes from. */
export type StoredParseSource = 'label' | 'manual' | 'llm';

/** What the CLI tells a user whose model preset has no model behind it (it scores with the offline engine). */
export const noModelHint =
  'add one (models download embedder|reranker, or models add ROLE FOLDER), or pass --preset offline.';

/** Which model roles the engine settings fill (a model, not the lexical engine): what the presets can score with. */
export interface ModelsSetUp {
  embedder: boolean;
  crossEncoder: boolean;
}

/**
 * What a preset scores with on this set-up, as the core resolves it (core/api/selection-deps.ts): the preset as named;
 * the offline (lexical) engine instead, when every scorer it names is the cross-encoder and none is set up (exact);
 * or nothing, when it needs an embedder and none is set up (fast and mixed refuse to run).
 */
export type PresetOutcome = 'as-named' | 'offline-instead' | 'cannot-run';

export function presetOutcome(preset: SelectionPreset, models: ModelsSetUp): PresetOutcome {
  const tiers = Object.values(presetTiers[preset]);
  if (tiers.includes('embedder') && !models.embedder) return 'cannot-run';
  const lexical = tiers.every((t) => t === 'lexical' || (t === 'cross-encoder' && !models.crossEncoder));
  return lexical && preset !== 'offline' ? 'offline-instead' : 'as-named';
}

/** Why a preset that needs an embedder cannot run without one (the selection's error, and the screens' note). */
export function needsEmbedderMessage(preset: SelectionPreset): string {
  return `The ${preset} preset scores with an embedder model: add one in ${localModelsPlace} (or choose the offline preset)`;
}

/** The screens' note on a model preset with no model behind it, which scores with the lexical engine instead. */
export function offlineInsteadNote(preset: SelectionPreset): string {
  return `No model is set up for “${preset}”, so it scores with the offline (lexical) engine. Add models in ${localModelsPlace}.`;
}

/**
 * The preset choosers' first option, the Settings' preset, named by what will score: "offline (exact needs a model:
 * Settings → Local models)" rather than a reranker that is not there.
 */
export function settingsPresetOption(preset: SelectionPreset | undefined, outcome?: PresetOutcome): string {
  if (!preset) return 'from Settings';
  if (outcome === 'offline-instead') return `offline (${preset} needs a model: ${localModelsPlace})`;
  if (outcome === 'cannot-run') return `${preset} (from Settings; needs an embedder: ${localModelsPlace})`;
  return `${preset} (from Settings)`;
}
