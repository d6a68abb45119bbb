// One selection: a pure async function of the inputs, a score provider and options, returning the full trace.
import { CuratorError } from '../../shared/errors';
import type { SelectionPreset } from '../../shared/presets';
import { instructions } from './instructions';
import { approxTokens } from './documents';
import type { ScoreMemo, ScoreProvider } from './scores';
import {
  rankedVariants,
  TRACE_VERSION,
  variants,
  type ScoreUse,
  type SelectionInput,
  type SelectionTrace,
  type Variant,
} from './trace-types';
import { createContext, runVariant } from './variants';
import { abstain } from './abstain';

export interface SelectOptions {
  variant?: Variant;
  /** k for the ranked variants (default 2). */
  k?: number;
  /** Exact cuts (default true): skip pairs whose score cannot change an argmax. */
  prune?: boolean;
  /** Stage-fit pairs per stage and round when pruning (default 4). */
  batchSize?: number;
  /**
   * Candidates aligned in the first round, heaviest w first, before checking whether the rest can change a split point
   * (default half of them; 0 aligns every candidate at once, as traces made before this cut did).
   */
  alignRound?: number;
  /** Cross-encoder prompt budget in tokens, for the token count (default 1024). */
  maxTokens?: number;
  /** The LLM for the `llm` variant: prompt in, answer text out. */
  llm?: (prompt: string) => Promise<string>;
  llmModel?: string | null;
  /** Body characters per candidate shown to the LLM (default 600). */
  llmBodyChars?: number;
  recallModel?: string | null;
  /** Known scores (a memo shared across variants, or a trace's recorded scores); filled as scores arrive. */
  memo?: ScoreMemo;
  /** A recorded LLM answer to reuse instead of asking (replay). */
  llmAnswer?: string;
  /** Without `llm`: the llm variant's reason instead of an UNAVAILABLE error (a comparison goes on without it). */
  llmUnavailable?: string;
  clock?: () => number;
  signal?: AbortSignal;
  /** The preset that built `scorer`, recorded in the trace. */
  preset?: SelectionPreset;
  /** Pairs this selection has sent to the scorer so far, as batches complete. */
  onPairsScored?: (pairsScored: number) => void;
  /**
   * Answer nothing when the best candidate's rho is below this (abstain.ts): the variants that score rho (all but
   * dense and llm). Undefined: never abstain, as METHOD.md.
   */
  abstainBelow?: number;
}

function scoreUses<T>(f: (use: ScoreUse) => T): Record<ScoreUse, T> {
  return { align: f('align'), relevance: f('relevance'), 'stage-fit': f('stage-fit') };
}

export async function selectSkills(
  input: SelectionInput,
  scorer: ScoreProvider | null,
  options: SelectOptions = {},
): Promise<SelectionTrace> {
  const variant = options.variant ?? 'full';
  if (!variants.includes(variant))
    throw new CuratorError('INVALID_ARGUMENT', `Unknown variant: ${String(variant)}`);
  const ranked = rankedVariants.includes(variant);
  const k = options.k ?? 2;
  if (ranked && (!Number.isInteger(k) || k < 1))
    throw new CuratorError('INVALID_ARGUMENT', `k must be a positive integer`);
  const parse = input.parse;
  if (parse && parse.states.length !== parse.subtasks.length + 1)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `A task parse needs one more state than sub-tasks (${parse.subtasks.length} sub-tasks, ${parse.states.length} states)`,
    );
  const clock = options.clock ?? (() => performance.now());
  const maxTokens = options.maxTokens ?? 1024;
  const prune = options.prune ?? true;
  const batchSize = options.batchSize ?? 4;
  const alignRound = options.alignRound ?? Math.max(1, Math.ceil(input.candidates.length / 2));
  const llmBodyChars = options.llmBodyChars ?? 600;
  const started = clock();
  const ctx = createContext(
    input,
    scorer,
    options.memo ?? new Map(),
    maxTokens,
    clock,
    options.onPairsScored,
    !ranked,
  );

  const result =
    input.candidates.length === 0
      ? null
      : await runVariant(ctx, variant, {
          k,
          prune,
          batchSize,
          alignRound,
          llm: options.llm,
          llmBodyChars,
          llmAnswer: options.llmAnswer,
          llmUnavailable: options.llmUnavailable,
          clock,
          signal: options.signal,
        });

  const abstention =
    result && options.abstainBelow !== undefined
      ? abstain(result, ctx.candidates, variant, options.abstainBelow, parse?.subtasks.length ?? 0)
      : undefined;
  const unplaced = ctx.candidates.filter((c) => c.unplaced).length;
  const llmPromptTokens = result?.llm ? approxTokens(result.llm.prompt) : 0;
  return {
    traceVersion: TRACE_VERSION,
    variant,
    k: ranked ? k : null,
    task: input.task,
    parse,
    n: parse?.states.length ?? 0,
    candidates: ctx.candidates,
    nodes: result?.nodes ?? [],
    splitPoints: result?.splitPoints ?? [],
    stages: result?.stages ?? [],
    ranking: result?.ranking ?? [],
    llm: result?.llm ?? null,
    answer: result?.answer ?? [],
    reason: result ? result.reason : (input.emptyReason ?? 'The recall returned no candidates'),
    ...(abstention ? { abstention } : {}),
    notes: ctx.notes,
    models: {
      recall: options.recallModel ?? null,
      crossEncoder: scorer && ctx.book.pairs > 0 ? scorer.id : null,
      llm: variant === 'llm' ? (options.llmModel ?? null) : null,
    },
    ...(options.preset ? { preset: options.preset } : {}),
    ...(scorer?.scorerFor ? { scorers: scoreUses(scorer.scorerFor) } : {}),
    instructions: scoreUses((use) => (scorer?.instructionFor?.(use) ?? instructions[use]).version),
    options: {
      maxTokens,
      prune,
      batchSize,
      llmBodyChars,
      ...(alignRound > 0 ? { alignRound } : {}),
      ...(options.abstainBelow !== undefined ? { abstainBelow: options.abstainBelow } : {}),
    },
    counts: {
      candidates: input.candidates.length,
      inGraph:
        variant === 'full'
          ? ctx.candidates.filter((c) => (c.src !== null || c.unplaced) && c.dropped === null).length
          : 0,
      pairs: ctx.book.pairs,
      pairsPruned: (result?.stages ?? []).reduce(
        (sum, s) => sum + s.phi.filter((e) => e.prunedBound !== undefined).length,
        0,
      ),
      ...(unplaced > 0 ? { unplaced } : {}),
      documentTokens: ctx.book.documentTokens,
      llmCalls: result?.llm ? 1 : 0,
      llmPromptTokens,
    },
    execution: {
      pairsScored: ctx.book.pairsScored,
      pairsReused: ctx.book.pairsReused,
      llmCalled: result?.llmCalled ?? false,
      totalMs: clock() - started,
      scoringMs: ctx.book.scoringMs,
      llmMs: result?.llmMs ?? 0,
    },
    input,
    scores: ctx.book.recorded,
  };
}
