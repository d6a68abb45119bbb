// The selection as the API and CLI run it: recall, task parse, the variant(s), the stored trace.
import type { SelectionPreset } from '../../shared/presets';
import type { Db } from '../store/db';
import { recallCandidates, type RecallFn } from './recall';
import { llmNeeded } from './variants';
import { replaySelection } from './replay';
import { getRun, saveRun, type RunVia } from './runs-store';
import type { ScoreMemo, ScoreProvider } from './scores';
import { selectSkills } from './select';
import { librarySize, loadSkillsForSelection } from './skill-source';
import { recordThroughput, type ThroughputMeter } from './throughput';
import type { SelectionTrace, TaskParse, TraceEdit, Variant } from './trace-types';

export interface SelectionDeps {
  db: Db;
  recall: RecallFn;
  /** The recall engine's id (an embedder id, or lexical:bm25). */
  recallModel: string;
  scorer: ScoreProvider | null;
  /** The preset that built `scorer`, recorded in every trace. */
  preset?: SelectionPreset;
  /** Answer nothing when the best rho is below this (select.ts `abstainBelow`); undefined: never abstain. */
  abstainBelow?: number;
  /** Times the engines while they score; recorded per engine after the selection (for cost estimates). */
  meter?: ThroughputMeter;
  /** Task parsing (the LLM's, or a cached one); null when none is available. */
  parseTask?: (task: string, signal?: AbortSignal) => Promise<TaskParse | null>;
  llm?: (prompt: string) => Promise<string>;
  llmModel?: string | null;
  clock: () => Date;
}

export interface SelectionRequest {
  task: string;
  variants: Variant[];
  k?: number;
  recallK?: number;
  /** A parse typed by hand; wins over parseTask. */
  parse?: TaskParse;
  maxTokens?: number;
  llmBodyChars?: number;
  prune?: boolean;
  /** Store each trace in selection_runs (default true). */
  store?: boolean;
  /** The host that asked, stored with the run (an agent over MCP). */
  via?: RunVia;
  signal?: AbortSignal;
  /** Progress: pairs scored so far over all variants, of `total` (the estimate, once the parse and C are known). */
  onProgress?: (p: { done: number; total: number; message: string }) => void;
  /** Upper bound of the pairs the variants need, given the parse and the number of candidates. */
  estimatePairs?: (parse: TaskParse | null, candidates: number) => number;
}

export interface SelectionOutcome {
  runId: number | null;
  trace: SelectionTrace;
}

/** Runs each requested variant on the same candidates and parse, sharing scores so a pair is scored once. */
export async function runSelection(
  deps: SelectionDeps,
  req: SelectionRequest,
  memo: ScoreMemo = new Map(),
): Promise<SelectionOutcome[]> {
  const needsParse = req.variants.some((v) => v === 'full' || v === 'no-graph' || v === 'no-split');
  const report = req.onProgress;
  if (!req.parse && needsParse && deps.parseTask)
    report?.({ done: 0, total: 0, message: 'Parsing the task' });
  const parse =
    req.parse ?? (needsParse && deps.parseTask ? await deps.parseTask(req.task, req.signal) : null);
  req.signal?.throwIfAborted();
  report?.({ done: 0, total: 0, message: 'Recalling candidates' });
  const { input } = await recallCandidates(
    req.task,
    parse,
    req.recallK ?? 30,
    deps.recall,
    (ids) => loadSkillsForSelection(deps.db, ids),
    librarySize(deps.db),
  );
  const total = req.estimatePairs?.(parse, input.candidates.length) ?? 0;
  let done = 0;
  report?.({ done, total, message: 'Scoring pairs' });
  const outcomes: SelectionOutcome[] = [];
  try {
    for (const variant of req.variants) {
      req.signal?.throwIfAborted();
      const before = done;
      // Compared with others, an llm variant with no LLM says why in its trace, is not stored, and stops nothing.
      const llmLeftOut = variant === 'llm' && !deps.llm && req.variants.length > 1;
      const trace = await selectSkills(input, deps.scorer, {
        variant,
        k: req.k,
        prune: req.prune,
        maxTokens: req.maxTokens,
        llm: deps.llm,
        llmModel: deps.llmModel,
        llmBodyChars: req.llmBodyChars,
        ...(llmLeftOut ? { llmUnavailable: llmNeeded } : {}),
        recallModel: deps.recallModel,
        memo,
        signal: req.signal,
        preset: deps.preset,
        abstainBelow: deps.abstainBelow,
        onPairsScored: (n) => {
          done = before + n;
          report?.({ done, total: Math.max(total, done), message: `Scoring pairs (${variant})` });
        },
      });
      done = before + trace.execution.pairsScored;
      const runId =
        req.store === false || llmLeftOut
          ? null
          : saveRun(deps.db, trace, 'lab', deps.clock(), null, req.via ?? null);
      outcomes.push({ runId, trace });
    }
  } finally {
    // What was timed counts even when the selection was cancelled part-way.
    if (deps.meter) recordThroughput(deps.db, deps.meter.samples(), deps.clock());
  }
  return outcomes;
}

/** What-if on a stored run (or a trace given as JSON); the replay is stored as a child run. */
export async function replayRun(
  deps: Pick<SelectionDeps, 'db' | 'scorer' | 'clock'>,
  source: { runId: number } | { trace: SelectionTrace },
  edits: TraceEdit[],
  options: { store?: boolean; signal?: AbortSignal } = {},
): Promise<SelectionOutcome> {
  const parentId = 'runId' in source ? source.runId : null;
  const trace = 'runId' in source ? getRun(deps.db, source.runId).trace : source.trace;
  const replayed = await replaySelection(trace, edits, deps.scorer, { signal: options.signal });
  const runId = options.store === false ? null : saveRun(deps.db, replayed, 'replay', deps.clock(), parentId);
  return { runId, trace: replayed };
}
