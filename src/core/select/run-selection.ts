// The selection as the API and CLI run it: recall, task parse, the variant(s), the stored trace.
import type { Db } from '../store/db';
import { recallCandidates, type RecallFn } from './recall';
import { replaySelection } from './replay';
import { getRun, saveRun } from './runs-store';
import type { ScoreMemo, ScoreProvider } from './scores';
import { selectSkills, type SelectOptions } from './select';
import { librarySize, loadSkillsForSelection } from './skill-source';
import type { SelectionTrace, TaskParse, TraceEdit, Variant } from './trace-types';

export interface SelectionDeps {
  db: Db;
  recall: RecallFn;
  /** The recall engine's id (an embedder id, or lexical:bm25). */
  recallModel: string;
  scorer: ScoreProvider | null;
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
  signal?: AbortSignal;
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
  const parse =
    req.parse ?? (needsParse && deps.parseTask ? await deps.parseTask(req.task, req.signal) : null);
  const { input } = await recallCandidates(
    req.task,
    parse,
    req.recallK ?? 30,
    deps.recall,
    (ids) => loadSkillsForSelection(deps.db, ids),
    librarySize(deps.db),
  );
  const outcomes: SelectionOutcome[] = [];
  for (const variant of req.variants) {
    req.signal?.throwIfAborted();
    const options: SelectOptions = {
      variant,
      k: req.k,
      prune: req.prune,
      maxTokens: req.maxTokens,
      llm: deps.llm,
      llmModel: deps.llmModel,
      llmBodyChars: req.llmBodyChars,
      recallModel: deps.recallModel,
      memo,
      signal: req.signal,
    };
    const trace = await selectSkills(input, deps.scorer, options);
    const runId = req.store === false ? null : saveRun(deps.db, trace, 'lab', deps.clock());
    outcomes.push({ runId, trace });
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
