// The evaluation part of the API: label sets and comparison runs (a resumable job).
import type { EvaluationApi } from '../../shared/api';
import type { CoreContext } from '../context';
import {
  findLabelSet,
  getEvalReport,
  getLabelItems,
  getLabelSetInfo,
  importLabelFile,
  listEvalRuns,
  listLabelSets,
  reportToJson,
  reportToMarkdown,
  runEval,
  saveLabelItem,
} from '../eval';
import type { EvalRequest } from '../eval';
import { selectionDeps } from './selection-deps';

export const EVAL_JOB = 'eval.run';

export function createEvaluationService(ctx: CoreContext): EvaluationApi {
  ctx.jobs.register<EvalRequest>(EVAL_JOB, async (request, job) => {
    // A resumed job continues its own evaluation run: tasks already evaluated are skipped.
    const existing = ctx.db
      .prepare('SELECT id FROM eval_runs WHERE job_id = ? ORDER BY id DESC LIMIT 1')
      .get(job.jobId) as { id: number } | undefined;
    const report = await runEval(
      await selectionDeps(ctx, job.signal),
      existing ? { ...request, resumeRunId: existing.id } : request,
      { signal: job.signal, report: job.report, jobId: job.jobId },
    );
    return { runId: report.runId, summary: report.summary };
  });

  return {
    'labels.import': async (req) => (await importLabelFile(ctx.db, req, ctx.clock())).set,
    'labels.list': async () => listLabelSets(ctx.db),
    'labels.get': async (req) => ({
      set: getLabelSetInfo(ctx.db, req.id),
      items: getLabelItems(ctx.db, req.id),
    }),
    'labels.saveItem': async (req) => saveLabelItem(ctx.db, req.setId, req.item, ctx.clock()),
    'eval.run': async (req) => {
      const set = findLabelSet(ctx.db, req.setId);
      const settings = ctx.settings.get().selection;
      const request: EvalRequest = {
        setId: set.id,
        variants: req.variants,
        k: req.k,
        recallK: req.recallK ?? settings.recallK,
        maxTokens: settings.crossEncoderMaxTokens,
        llmBodyChars: settings.llmSelectorBodyChars,
      };
      return ctx.jobs.start(EVAL_JOB, request);
    },
    'eval.list': async () => listEvalRuns(ctx.db),
    'eval.show': async (req) => getEvalReport(ctx.db, req.runId),
    'eval.export': async (req) => {
      const report = getEvalReport(ctx.db, req.runId);
      return { content: req.format === 'markdown' ? reportToMarkdown(report) : reportToJson(report) };
    },
  };
}
