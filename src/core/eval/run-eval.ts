// An evaluation run as a job: every chosen variant (and k) on every task of a label set, with the recall scored
// separately; results are stored item by item, so a cancelled or crashed run resumes where it stopped.
import type { JobProgress } from '../../shared/jobs';
import type { SelectionPreset } from '../../shared/presets';
import { CuratorError } from '../../shared/errors';
import { recallAtK, recallCandidates } from '../select/recall';
import { saveRun } from '../select/runs-store';
import type { ScoreMemo } from '../select/scores';
import { selectSkills } from '../select/select';
import { librarySize, loadSkillsForSelection } from '../select/skill-source';
import type { SelectionDeps } from '../select/run-selection';
import {
  rankedVariants,
  variants as allVariants,
  type SelectionTrace,
  type TaskParse,
  type Variant,
} from '../select/trace-types';
import {
  createEvalRun,
  getEvalRun,
  getResults,
  saveRecall,
  saveResult,
  setEvalStatus,
  type EvalRunRequest,
} from './eval-store';
import { getEvalReport, type EvalReport } from './eval-report';
import { getLabelItems, getLabelSetInfo } from './label-store';
import { recordRunLibrary } from './library-snapshot';
import type { LabelItem } from './label-format';
import { taskMetrics } from './metrics';

export interface EvalJob {
  signal: AbortSignal;
  report(p: JobProgress): void;
  jobId?: string;
}

export interface EvalRequest {
  setId: number;
  variants: Variant[];
  /** k values for the ranked variants; default [1, 2] (the paper reports their mean). */
  k?: number[];
  recallK?: number;
  /** Which scorer is behind r; a resumed run keeps the preset it started with. */
  preset?: SelectionPreset;
  prune?: boolean;
  maxTokens?: number;
  llmBodyChars?: number;
  /** Continue this run: items already evaluated are skipped. */
  resumeRunId?: number;
  /** The selection settings in force, recorded with the run's library. */
  settings?: Record<string, unknown>;
}

export type EvalDeps = SelectionDeps;

interface Combo {
  variant: Variant;
  k: number;
}

function combos(request: EvalRunRequest): Combo[] {
  return request.variants.flatMap((variant) =>
    rankedVariants.includes(variant) ? request.k.map((k) => ({ variant, k })) : [{ variant, k: 0 }],
  );
}

function normalise(req: EvalRequest): EvalRunRequest {
  if (req.variants.length === 0) throw new CuratorError('INVALID_ARGUMENT', 'Choose at least one variant');
  for (const v of req.variants)
    if (!allVariants.includes(v)) throw new CuratorError('INVALID_ARGUMENT', `Unknown variant: ${v}`);
  const k = [...new Set(req.k ?? [1, 2])].sort((a, b) => a - b);
  if (k.some((x) => !Number.isInteger(x) || x < 1))
    throw new CuratorError('INVALID_ARGUMENT', 'k values must be positive integers');
  return {
    setId: req.setId,
    variants: [...new Set(req.variants)],
    k,
    recallK: req.recallK ?? 30,
    ...(req.preset ? { preset: req.preset } : {}),
    prune: req.prune ?? true,
    maxTokens: req.maxTokens ?? 1024,
    llmBodyChars: req.llmBodyChars ?? 600,
  };
}

async function taskParse(
  deps: EvalDeps,
  item: LabelItem,
  needed: boolean,
  signal: AbortSignal,
): Promise<{ parse: TaskParse | null; note?: string }> {
  if (item.parse) return { parse: item.parse };
  if (!needed || !deps.parseTask)
    return { parse: null, ...(needed ? { note: 'No task parse: no hand-typed parse and no LLM' } : {}) };
  try {
    return { parse: await deps.parseTask(item.task, signal) };
  } catch (e) {
    if (signal.aborted) throw e;
    return { parse: null, note: `The task parse failed: ${(e as Error).message}` };
  }
}

export async function runEval(deps: EvalDeps, req: EvalRequest, job: EvalJob): Promise<EvalReport> {
  const request = req.resumeRunId ? getEvalRun(deps.db, req.resumeRunId).request : normalise(req);
  getLabelSetInfo(deps.db, request.setId);
  const items = getLabelItems(deps.db, request.setId);
  const runId =
    req.resumeRunId ??
    createEvalRun(
      deps.db,
      request,
      {
        recall: deps.recallModel,
        crossEncoder: deps.scorer?.id ?? null,
        llm: request.variants.includes('llm') ? (deps.llmModel ?? null) : null,
      },
      job.jobId ?? null,
      deps.clock(),
    );
  if (req.resumeRunId) setEvalStatus(deps.db, runId, 'running', deps.clock());
  else
    recordRunLibrary(
      deps.db,
      runId,
      {
        engines: {
          preset: deps.preset ?? null,
          recall: deps.recallModel,
          scorer: deps.scorer?.id ?? null,
          llm: request.variants.includes('llm') ? (deps.llmModel ?? null) : null,
        },
        settings: req.settings ?? {},
      },
      deps.clock(),
    );
  const plan = combos(request);
  const done = new Set(getResults(deps.db, runId).map((r) => `${r.itemId}\u0001${r.variant}\u0001${r.k}`));
  const needsParse = request.variants.some((v) => !rankedVariants.includes(v));
  const started = deps.clock().getTime();
  let finished = 0;
  let failed = 0;
  let freshItems = 0;
  const counters = { crossEncoderPairs: 0, llmCalls: 0, tokens: 0 };
  const size = librarySize(deps.db);

  try {
    for (const item of items) {
      // Offline engines answer without real I/O: without this yield a run would hold the event loop to its end, and
      // neither a cancel request nor the progress a screen polls for would get through.
      await new Promise<void>((resolve) => setImmediate(resolve));
      job.signal.throwIfAborted();
      const todo = plan.filter((c) => !done.has(`${item.id}\u0001${c.variant}\u0001${c.k}`));
      if (todo.length > 0) {
        failed += await evaluateItem(
          deps,
          request,
          runId,
          item,
          todo,
          needsParse,
          size,
          job.signal,
          counters,
        );
        freshItems++;
      }
      finished++;
      const elapsed = (deps.clock().getTime() - started) / 1000;
      job.report({
        done: finished,
        total: items.length,
        failed,
        message: `Evaluated ${item.id}`,
        counters: { ...counters },
        ...(freshItems > 0
          ? { etaSeconds: Math.round((elapsed / freshItems) * (items.length - finished)) }
          : {}),
      });
    }
  } catch (e) {
    setEvalStatus(deps.db, runId, job.signal.aborted ? 'cancelled' : 'failed', deps.clock());
    throw e;
  }
  setEvalStatus(deps.db, runId, 'done', deps.clock());
  return getEvalReport(deps.db, runId);
}

/** All pending variants on one task, sharing the recall, the parse and the scores; returns the number that failed. */
async function evaluateItem(
  deps: EvalDeps,
  request: EvalRunRequest,
  runId: number,
  item: LabelItem,
  todo: Combo[],
  needsParse: boolean,
  size: number,
  signal: AbortSignal,
  counters: { crossEncoderPairs: number; llmCalls: number; tokens: number },
): Promise<number> {
  const { parse, note } = await taskParse(deps, item, needsParse && todo.some((c) => c.k === 0), signal);
  const { input } = await recallCandidates(
    item.task,
    parse,
    request.recallK,
    deps.recall,
    (ids) => loadSkillsForSelection(deps.db, ids),
    size,
  );
  const recalled = input.candidates.map((c) => c.name);
  saveRecall(deps.db, runId, item.id, recalled, recallAtK(recalled, item.gold));
  const memo: ScoreMemo = new Map();
  let llmAnswer: string | undefined;
  let failures = 0;
  for (const combo of todo) {
    signal.throwIfAborted();
    const ranked = combo.k > 0;
    let trace: SelectionTrace | null = null;
    let error: string | null = null;
    try {
      trace = await selectSkills(input, deps.scorer, {
        variant: combo.variant,
        k: ranked ? combo.k : undefined,
        prune: request.prune,
        maxTokens: request.maxTokens,
        llmBodyChars: request.llmBodyChars,
        llm: deps.llm,
        llmModel: deps.llmModel,
        llmAnswer: combo.variant === 'llm' ? llmAnswer : undefined,
        recallModel: deps.recallModel,
        abstainBelow: deps.abstainBelow,
        memo,
        signal,
      });
      if (combo.variant === 'llm' && trace.llm) llmAnswer = trace.llm.raw;
      if (note && !ranked) trace.notes.push(note);
    } catch (e) {
      if (signal.aborted) throw e;
      error = e instanceof Error ? e.message : String(e);
      failures++;
    }
    const answer = trace ? trace.answer.map((a) => a.name) : [];
    const metrics = taskMetrics(answer, item, {
      crossEncoderPairs: trace?.counts.pairs ?? 0,
      llmCalls: trace?.counts.llmCalls ?? 0,
      tokens: (trace?.counts.documentTokens ?? 0) + (trace?.counts.llmPromptTokens ?? 0),
      ms: trace?.execution.totalMs ?? 0,
    });
    if (trace) {
      counters.crossEncoderPairs += trace.execution.pairsScored;
      counters.llmCalls += trace.execution.llmCalled ? 1 : 0;
      counters.tokens += metrics.tokens;
    }
    const selectionRunId = trace ? saveRun(deps.db, trace, 'eval', deps.clock()) : null;
    saveResult(deps.db, runId, {
      itemId: item.id,
      variant: combo.variant,
      k: combo.k,
      answer,
      metrics,
      selectionRunId,
      error,
    });
  }
  return failures;
}
