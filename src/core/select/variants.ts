// The variants users compare (METHOD.md "Variants"): the stage-wise ones (full, no-graph, no-split) and the ranked
// ones (no-parse, dense, llm) with their k.
import { CuratorError } from '../../shared/errors';
import { createContext, rankBy, scoreRelevance, type SelectionContext } from './context';
import { parseSelectorAnswer, selectorPrompt } from './llm-selector';
import { placeEdges } from './placement';
import { nodeWeights, stageBoundaries, stageSpans } from './split';
import { dedupWinners, stageWinners } from './stages';
import type { AnswerItem, SelectionTrace, Variant } from './trace-types';

export type VariantResult = Pick<
  SelectionTrace,
  'nodes' | 'splitPoints' | 'stages' | 'ranking' | 'llm' | 'answer' | 'reason'
> & { llmMs: number; llmCalled: boolean };

export interface VariantOptions {
  k: number;
  prune: boolean;
  batchSize: number;
  /** Candidates aligned per round before the split bound is checked (0: all at once). */
  alignRound: number;
  llm?: (prompt: string) => Promise<string>;
  llmBodyChars: number;
  /** A recorded LLM answer (replay): used instead of asking again. */
  llmAnswer?: string;
  /** Without `llm`: the result's reason, instead of an UNAVAILABLE error. */
  llmUnavailable?: string;
  clock: () => number;
  signal?: AbortSignal;
}

const empty = (): VariantResult => ({
  nodes: [],
  splitPoints: [],
  stages: [],
  ranking: [],
  llm: null,
  answer: [],
  reason: null,
  llmMs: 0,
  llmCalled: false,
});

function item(ctx: SelectionContext, candidate: number, extra: Partial<AnswerItem>): AnswerItem {
  const c = ctx.candidates[candidate]!;
  return { name: c.name, skillId: c.skillId, candidate, stages: [], ...extra };
}

/** Edge case: the single skill with the largest rho_k. */
function largestRho(ctx: SelectionContext, reason: string): VariantResult {
  const best = rankBy(
    ctx.candidates.map((c) => c.index),
    (i) => ctx.candidates[i]!.rho!,
  )[0]!;
  return { ...empty(), answer: [item(ctx, best, {})], reason };
}

export async function stageVariant(
  ctx: SelectionContext,
  variant: 'full' | 'no-graph' | 'no-split',
  options: VariantOptions,
): Promise<VariantResult> {
  await scoreRelevance(ctx);
  options.signal?.throwIfAborted();
  const parse = ctx.input.parse;
  const n = parse?.states.length ?? 0;
  const noTransition =
    n === 0
      ? 'The task has no parse, so no graph: answered the skill with the largest rho'
      : `The task parse has ${n} state(s), so no transition: answered the skill with the largest rho`;
  if (n <= 1 && variant !== 'full') return largestRho(ctx, noTransition);
  let contenders = ctx.candidates;
  const result = empty();

  if (variant === 'full') {
    const placement = await placeEdges(
      parse?.states ?? [],
      ctx.candidates.map((c) => ({
        candidate: c.index,
        precondition: c.precondition,
        completion: c.completion,
        w: c.w!,
      })),
      ctx.book,
      options,
    );
    for (const e of placement.edges) {
      const c = ctx.candidates[e.candidate]!;
      c.src = e.src;
      c.tgt = e.tgt;
      c.srcScores = e.srcScores;
      c.tgtScores = e.tgtScores;
      c.dropped = e.dropped;
      if (e.open) c.unplaced = e.open;
    }
    contenders = ctx.candidates.filter((c) => c.dropped === null);
    if (n <= 1) return largestRho(ctx, noTransition);
    if (contenders.length === 0)
      return largestRho(ctx, 'No candidate survives in the graph: answered the skill with the largest rho');
    // Open edges add nothing here; placement.ts proved they cannot change any split decision.
    result.nodes = nodeWeights(
      n,
      contenders.filter((c) => !c.unplaced).map((c) => ({ src: c.src!, tgt: c.tgt!, w: c.w! })),
    ).map((node) => (placement.open ? { ...node, openWeight: placement.open.openWeight } : node));
    result.splitPoints = result.nodes.filter((x) => x.split).map((x) => x.i);
  }
  options.signal?.throwIfAborted();

  const boundaries =
    variant === 'full'
      ? stageBoundaries(n, result.splitPoints)
      : variant === 'no-graph'
        ? [0, n - 1]
        : Array.from({ length: n }, (_, i) => i);
  result.stages = await stageWinners(
    stageSpans(boundaries, parse!.subtasks),
    contenders.map((c) => ({ candidate: c.index, rho: c.rho! })),
    ctx.book,
    options,
  );
  result.answer = dedupWinners(result.stages).map((w) => item(ctx, w.candidate, { stages: w.stages }));
  return result;
}

export async function rankedVariant(
  ctx: SelectionContext,
  variant: 'no-parse' | 'dense' | 'llm',
  options: VariantOptions,
): Promise<VariantResult> {
  const result = empty();
  const all = ctx.candidates.map((c) => c.index);
  if (variant === 'no-parse') {
    await scoreRelevance(ctx);
    result.ranking = rankBy(all, (i) => ctx.candidates[i]!.rho!).map((i) => ({
      candidate: i,
      score: ctx.candidates[i]!.rho!,
    }));
  } else if (variant === 'dense') {
    result.ranking = rankBy(all, (i) => ctx.candidates[i]!.recallScore).map((i) => ({
      candidate: i,
      score: ctx.candidates[i]!.recallScore,
    }));
  } else {
    await llmRanking(ctx, options, result);
  }
  result.answer = result.ranking.slice(0, options.k).map((r, i) => item(ctx, r.candidate, { rank: i + 1 }));
  return result;
}

export const llmNeeded =
  'The llm variant needs an LLM endpoint: set one up in Settings → LLM endpoint (or `settings set llm.baseURL=… llm.model=…`)';

async function llmRanking(
  ctx: SelectionContext,
  options: VariantOptions,
  result: VariantResult,
): Promise<void> {
  const prompt = selectorPrompt(ctx.input.task, ctx.input.candidates, options.llmBodyChars);
  let raw = options.llmAnswer;
  if (raw === undefined) {
    if (!options.llm && options.llmUnavailable) {
      result.reason = options.llmUnavailable;
      return;
    }
    if (!options.llm) throw new CuratorError('UNAVAILABLE', llmNeeded);
    const started = options.clock();
    raw = await options.llm(prompt);
    result.llmMs = options.clock() - started;
    result.llmCalled = true;
  }
  const names = ctx.candidates.map((c) => c.name);
  const parsed = parseSelectorAnswer(raw, names);
  if (!parsed.ok) {
    result.llm = { prompt, raw, ranked: [], notCandidates: [], duplicates: [], formatError: parsed.error };
    result.reason = `The LLM answer was not a ranked list of names: ${parsed.error}`;
    return;
  }
  result.llm = {
    prompt,
    raw,
    ranked: parsed.ranked,
    notCandidates: parsed.notCandidates,
    duplicates: parsed.duplicates,
  };
  result.ranking = parsed.ranked.map((name, i) => ({ candidate: names.indexOf(name), score: i + 1 }));
  if (parsed.ranked.length === 0) result.reason = 'The LLM found no candidate that helps';
}

export async function runVariant(
  ctx: SelectionContext,
  variant: Variant,
  options: VariantOptions,
): Promise<VariantResult> {
  if (variant === 'full' || variant === 'no-graph' || variant === 'no-split')
    return stageVariant(ctx, variant, options);
  return rankedVariant(ctx, variant, options);
}

export { createContext };
