// What selection and evaluation need from the core: the recall and the preset's scorers (cross-encoder, embedder or
// lexical engine per use of r), the task parser (a hand-typed or cached parse first, the LLM when one is set up), the
// LLM for the LLM-as-selector variant, and the meter that times the engines for the cost estimate.
import { CuratorError } from '../../shared/errors';
import type { ScorerTier, SelectionPreset, StoredParseSource } from '../../shared/presets';
import type { TaskParse } from '../../shared/trace';
import { abstainThreshold, needsEmbedderMessage, presetTiers, selectionPresets } from '../../shared/presets';
import type { CoreContext } from '../context';
import { createLlmClient } from '../llm/client';
import { parseTask, storedTaskParse } from '../llm/parse-task';
import type { LlmClient } from '../llm/ports';
import { parseLlmSettings } from '../llm/settings';
import { createLexicalCrossEncoder, lexicalCrossEncoderId } from '../models/lexical/lexical-cross-encoder';
import { lexicalRecallEngine } from '../models/lexical/lexical-recall';
import type { Embedder } from '../models/ports';
import { recallSkills } from '../search/recall';
import type { SkillFilter } from '../store/library-filter';
import { skillSideCoverage, skillSideLookup } from '../search/skill-side-index';
import { skillSideRefresher } from './skill-side-refresh';
import { embedderCalibration } from '../select/calibration';
import { embedderScoreProvider } from '../select/embedder-score-provider';
import { presetScorer } from '../select/preset-scorer';
import { crossEncoderScoreProvider } from '../select/score-provider';
import type { SelectionDeps } from '../select/run-selection';
import type { ScoreProvider } from '../select/scores';
import { ThroughputMeter } from '../select/throughput';

function llmClient(ctx: CoreContext): LlmClient | undefined {
  const settings = ctx.settings.get().llm;
  if (settings.model.trim() === '') return undefined;
  return createLlmClient({
    settings: parseLlmSettings(settings),
    apiKey: async () => (await ctx.secrets.getApiKey()) ?? undefined,
    logger: ctx.logger,
    clock: ctx.clock,
  });
}

/** Whether an LLM endpoint is set up (the llm variant and task parsing need one). */
export function llmConfigured(ctx: CoreContext): boolean {
  return ctx.settings.get().llm.model.trim() !== '';
}

/** The parse a selection of this task finds without calling an LLM (hand-typed, stored, or a label's), or null. */
export function expectedTaskParse(
  ctx: CoreContext,
  task: string,
): (TaskParse & { source: StoredParseSource }) | null {
  const stored = storedTaskParse({ db: ctx.db, llm: llmClient(ctx) }, { task });
  return stored ? { subtasks: stored.subtasks, states: stored.states, source: stored.source } : null;
}

export function checkPreset(preset: unknown): SelectionPreset {
  if (!selectionPresets.includes(preset as SelectionPreset))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Unknown preset "${String(preset)}"; use one of ${selectionPresets.join(', ')}`,
    );
  return preset as SelectionPreset;
}

/** The vector embedder the fast and mixed presets need, or a clear error. */
async function vectorEmbedder(ctx: CoreContext, preset: SelectionPreset): Promise<Embedder> {
  const embedder = ctx.settings.get().engines.embedder === 'lexical' ? null : await ctx.engines.embedder();
  if (!embedder || embedder.dim <= 0) throw new CuratorError('UNAVAILABLE', needsEmbedderMessage(preset));
  return embedder;
}

/** The engine id behind each tier of a preset (the ids throughput is recorded under). */
export async function presetEngineIds(
  ctx: CoreContext,
  preset: SelectionPreset,
): Promise<Partial<Record<ScorerTier, string>>> {
  const tiers = new Set(Object.values(presetTiers[preset]));
  const out: Partial<Record<ScorerTier, string>> = {};
  if (tiers.has('cross-encoder')) out['cross-encoder'] = (await ctx.engines.crossEncoder()).id;
  if (tiers.has('embedder')) out.embedder = (await vectorEmbedder(ctx, preset)).id;
  if (tiers.has('lexical')) out.lexical = lexicalCrossEncoderId;
  return out;
}

export async function presetProviders(
  ctx: CoreContext,
  preset: SelectionPreset,
  meter: ThroughputMeter,
  signal?: AbortSignal,
): Promise<{ scorer: ScoreProvider; embedder: Embedder | null }> {
  const settings = ctx.settings.get();
  const tiers = new Set(Object.values(presetTiers[preset]));
  const providers: Partial<Record<ScorerTier, ScoreProvider>> = {};
  let embedder: Embedder | null = null;
  if (tiers.has('cross-encoder'))
    providers['cross-encoder'] = crossEncoderScoreProvider(await ctx.engines.crossEncoder(), {
      maxTokens: settings.selection.crossEncoderMaxTokens,
      maxTokensByUse: { align: settings.selection.crossEncoderAlignMaxTokens },
      signal,
      meter,
    });
  if (tiers.has('lexical'))
    providers.lexical = crossEncoderScoreProvider(createLexicalCrossEncoder(ctx.db), { signal, meter });
  if (tiers.has('embedder')) {
    embedder = await vectorEmbedder(ctx, preset);
    // A state edit's re-embedding in flight: wait, so this selection finds the skill side stored.
    await skillSideRefresher(ctx).idle();
    const dtype = settings.models.embedder.dtype;
    providers.embedder = embedderScoreProvider(embedder, {
      calibration: embedderCalibration(embedder.id, settings.selection.embedderCalibration),
      skillSide: skillSideLookup(ctx.db, embedder.id, dtype),
      signal,
      meter,
    });
  }
  return { scorer: presetScorer(preset, providers), embedder };
}

/** Share of the library whose skill side is stored for this embedder. */
export function currentSkillSideCoverage(ctx: CoreContext, embedderId: string): number {
  return skillSideCoverage(ctx.db, embedderId, ctx.settings.get().models.embedder.dtype);
}

export async function selectionDeps(
  ctx: CoreContext,
  signal?: AbortSignal,
  requested?: SelectionPreset,
  /** Recall only among these skills (what an MCP server may serve). */
  recallFilter?: SkillFilter,
): Promise<SelectionDeps> {
  const settings = ctx.settings.get();
  const preset = checkPreset(requested ?? settings.selection.preset);
  const meter = new ThroughputMeter();
  // The offline preset needs no model at all, the recall included.
  const recallDeps = {
    db: ctx.db,
    embedder: preset === 'offline' ? undefined : ((await ctx.engines.embedder()) ?? undefined),
    recallInstruction: settings.selection.recallInstruction,
  };
  const { scorer } = await presetProviders(ctx, preset, meter, signal);
  const llm = llmClient(ctx);
  return {
    db: ctx.db,
    recall: async (query, k) =>
      (await recallSkills(recallDeps, query, k, { filters: recallFilter, signal })).candidates,
    recallModel: recallDeps.embedder?.dim ? recallDeps.embedder.id : lexicalRecallEngine,
    scorer,
    preset,
    abstainBelow: abstainThreshold(
      settings.selection.abstainBelow,
      preset,
      scorer?.scorerFor?.('relevance').tier,
    ),
    meter,
    parseTask: async (task, taskSignal) => {
      try {
        const parse = await parseTask(
          { db: ctx.db, llm, clock: ctx.clock, logger: ctx.logger },
          { task, signal: taskSignal ?? signal },
        );
        return { subtasks: parse.subtasks, states: parse.states };
      } catch (error) {
        // No LLM and no stored parse: the selection runs on the task alone and its trace says so.
        if (error instanceof CuratorError && error.code === 'UNAVAILABLE') return null;
        throw error;
      }
    },
    llm: llm
      ? async (prompt) => (await llm.complete([{ role: 'user', content: prompt }], { signal })).text
      : undefined,
    llmModel: llm ? settings.llm.model : null,
    clock: ctx.clock,
  };
}
