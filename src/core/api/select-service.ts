// The selection part of the API: run, compare, replay, stored runs, export of an answer.
import path from 'node:path';
import type { SelectApi, SelectionResult, SelectRequest, Variant } from '../../shared/api';
import { variants } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import type { SelectionTrace } from '../../shared/trace';
import type { CoreContext } from '../context';
import { assertGatePasses } from '../audit/audit-gate';
import { exportSkills } from '../export';
import { editsFromApi } from '../select/edits';
import { explainSelection } from '../select/explain';
import { goldForTask } from '../select/gold-for-task';
import { replayRun, runSelection } from '../select/run-selection';
import { getRun, listRuns, type RunVia } from '../select/runs-store';
import type { SkillFilter } from '../store/library-filter';
import { parseTraceJson } from '../select/trace-schema';
import { checkGivenParse } from '../select/given-parse';
import { estimateSelection } from '../select/cost';
import { lexicalRecall } from '../models/lexical/lexical-recall';
import type { SelectionPreset } from '../../shared/presets';
import {
  checkPreset,
  currentSkillSideCoverage,
  expectedTaskParse,
  llmConfigured,
  presetEngineIds,
  selectionDeps,
} from './selection-deps';

function result(runId: number | null, trace: SelectionTrace, gold: string[] | null): SelectionResult {
  return {
    runId: runId ?? -1,
    variant: trace.variant,
    answer: trace.answer.map((a) => ({ skillId: a.skillId ?? -1, name: a.name })),
    trace,
    why: explainSelection(trace, gold),
  };
}

function checkVariants(list: Variant[]): Variant[] {
  if (list.length === 0) throw new CuratorError('INVALID_ARGUMENT', 'Choose at least one variant');
  for (const v of list) {
    if (!variants.includes(v)) {
      throw new CuratorError('INVALID_ARGUMENT', `Unknown variant "${v}"; use one of ${variants.join(', ')}`);
    }
  }
  return list;
}

function checkTask(req: { task?: unknown } | undefined): string {
  if (!req || typeof req.task !== 'string' || req.task.trim() === '') {
    throw new CuratorError('INVALID_ARGUMENT', 'Type a task to select skills for');
  }
  return req.task.trim();
}

export interface SelectServiceOptions {
  /** Stored with every run this service makes (the MCP server's own instance says 'mcp'). */
  via?: RunVia;
  /** Read at each selection: the recall considers only these skills. */
  recallFilter?: () => Promise<SkillFilter> | SkillFilter;
}

/**
 * True when the selection's recall will be lexical (the offline preset, or no vector embedder): it costs milliseconds
 * and returns only the skills that share a term with the task, often fewer than K, so the estimate counts them.
 */
function lexicalRecallUsed(ctx: CoreContext, preset: SelectionPreset): boolean {
  return preset === 'offline' || ctx.settings.get().engines.embedder === 'lexical';
}

export function createSelectService(ctx: CoreContext, options: SelectServiceOptions = {}): SelectApi {
  /** Selections started with a requestId, so select.cancel can stop them. */
  const running = new Map<string, AbortController>();

  const run = async (req: Omit<SelectRequest, 'variant'>, list: Variant[]) => {
    const task = checkTask(req);
    checkGivenParse(req.parse);
    const settings = ctx.settings.get().selection;
    const preset = checkPreset(req.preset ?? settings.preset);
    const requestId = typeof req.requestId === 'string' && req.requestId ? req.requestId : null;
    if (requestId && running.has(requestId))
      throw new CuratorError('CONFLICT', `A selection named ${requestId} is already running`);
    const controller = new AbortController();
    if (requestId) running.set(requestId, controller);
    try {
      const deps = await selectionDeps(ctx, controller.signal, preset, await options.recallFilter?.());
      const engines = await presetEngineIds(ctx, preset);
      const outcomes = await runSelection(deps, {
        task,
        variants: checkVariants(list),
        k: req.k ?? settings.rankedK,
        recallK: req.recallK ?? settings.recallK,
        parse: req.parse && {
          subtasks: req.parse.subtasks.map((s) => s.trim()),
          states: req.parse.states.map((s) => s.trim()),
          givenBy: req.parseBy === 'agent' ? 'agent' : 'manual',
        },
        maxTokens: settings.crossEncoderMaxTokens,
        llmBodyChars: settings.llmSelectorBodyChars,
        signal: controller.signal,
        via: options.via,
        estimatePairs: (parse, candidates) =>
          estimateSelection(ctx.db, {
            preset,
            variants: list,
            K: candidates,
            task,
            parse,
            maxTokens: settings.crossEncoderMaxTokens,
            engines,
          }).pairs,
        onProgress: requestId
          ? (p) => ctx.events.emit({ type: 'select.progress', requestId, ...p })
          : undefined,
      });
      const gold = goldForTask(ctx.db, task);
      return outcomes.map((o) => result(o.runId, o.trace, gold));
    } catch (error) {
      if (controller.signal.aborted) throw new CuratorError('CANCELLED', 'The selection was cancelled');
      throw error;
    } finally {
      if (requestId) running.delete(requestId);
    }
  };

  return {
    'select.run': async (req) => (await run(req, [req.variant ?? 'full']))[0]!,
    'select.compare': (req) => run(req, req.variants),
    'select.replay': async (req) => {
      let source: { runId: number } | { trace: SelectionTrace };
      let trace: SelectionTrace;
      if (typeof req.runId === 'number') {
        source = { runId: req.runId };
        trace = getRun(ctx.db, req.runId).trace;
      } else if (req.trace) {
        trace = parseTraceJson(JSON.stringify(req.trace));
        source = { trace };
      } else {
        throw new CuratorError('INVALID_ARGUMENT', 'Give the run id or the trace to replay');
      }
      const outcome = await replayRun(await selectionDeps(ctx, undefined, trace.preset), source, [
        ...editsFromApi(trace, req.edits ?? {}),
        ...(req.edits?.exact ?? []),
      ]);
      return result(outcome.runId, outcome.trace, goldForTask(ctx.db, outcome.trace.task));
    },
    'select.estimate': async (req) => {
      const task = checkTask(req);
      const settings = ctx.settings.get().selection;
      const preset = checkPreset(req.preset ?? settings.preset);
      const engines = await presetEngineIds(ctx, preset);
      const K = req.recallK ?? settings.recallK;
      const llm = llmConfigured(ctx);
      const stored = req.parse ? null : expectedTaskParse(ctx, task);
      const parse = req.parse ?? (stored && { subtasks: stored.subtasks, states: stored.states });
      const estimate = estimateSelection(ctx.db, {
        preset,
        variants: checkVariants(req.variants ?? ['full']),
        K: lexicalRecallUsed(ctx, preset) ? lexicalRecall(ctx.db, task, K).length : K,
        task,
        parse,
        willParse: parse !== null || llm,
        llm,
        maxTokens: settings.crossEncoderMaxTokens,
        engines,
        skillSideCoverage: engines.embedder ? currentSkillSideCoverage(ctx, engines.embedder) : 1,
      });
      return stored ? { ...estimate, storedParse: stored.source } : estimate;
    },
    'select.cancel': async (req) => {
      const controller = running.get(req?.requestId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    'select.runs': async (req) =>
      listRuns(ctx.db, req?.limit ?? 50, { evaluations: req?.evaluations }).map((r) => ({
        runId: r.runId,
        task: r.task,
        variant: r.variant,
        answer: r.answer,
        createdAt: r.createdAt,
        ...(r.via ? { via: r.via } : {}),
      })),
    'select.get': async (req) => {
      const stored = getRun(ctx.db, req.runId);
      const res = result(stored.runId, stored.trace, goldForTask(ctx.db, stored.trace.task));
      return stored.via ? { ...res, via: stored.via } : res;
    },
    'export.skills': async (req) => {
      // A relative destination is refused by the export itself, before anything is audited.
      if (Array.isArray(req?.skillIds) && path.isAbsolute(String(req.destination ?? '')))
        await assertGatePasses(ctx, req.skillIds, 'exported');
      const res = await exportSkills(ctx.db, req);
      return {
        destination: res.destination,
        written: res.written,
        missing: res.missing.map((m) => ({ name: m.name, reason: `${m.file}: ${m.reason}` })),
      };
    },
  };
}
