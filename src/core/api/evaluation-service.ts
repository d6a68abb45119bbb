// The evaluation part of the API: label sets and comparison runs (a resumable job), the comparison of a run with an
// earlier one, the confusability report and exports.
import path from 'node:path';
import type { EvalExportFormat, EvaluationApi } from '../../shared/api';
import { type SelectionPreset, selectionPresets } from '../../shared/presets';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import {
  compareRuns,
  confusability,
  findLabelSet,
  getEvalReport,
  getEvalRun,
  getLabelItems,
  getLabelSetInfo,
  getRunLibrary,
  importLabelFile,
  lastRunOfSet,
  listEvalRuns,
  listLabelSets,
  previousRunId,
  reportToCsv,
  reportToJson,
  reportToMarkdown,
  runEval,
  saveLabelItem,
} from '../eval';
import type { EvalReport, EvalRequest } from '../eval';
import { checkPreset, selectionDeps } from './selection-deps';
import { writeNewFile } from '../export/write-new-file';
import { goldCoverage } from '../eval/gold-coverage';
import { exportLabels } from '../eval/label-export';

export const EVAL_JOB = 'eval.run';

const exporters: Record<EvalExportFormat, { render: (r: EvalReport) => string; ext: string }> = {
  json: { render: reportToJson, ext: 'json' },
  markdown: { render: reportToMarkdown, ext: 'md' },
  csv: { render: reportToCsv, ext: 'csv' },
};

/** A relative path would land in the host's working folder (the HTTP server's), not where the caller meant. */
function absolutePath(file: string): void {
  if (!path.isAbsolute(file))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `The export path "${file}" is relative; give an absolute file path`,
    );
}

function recordedPreset(preset: string | null | undefined): SelectionPreset | undefined {
  return selectionPresets.find((p) => p === preset);
}

export function createEvaluationService(ctx: CoreContext): EvaluationApi {
  ctx.jobs.register<EvalRequest>(EVAL_JOB, async (request, job) => {
    // A resumed job continues its own evaluation run: tasks already evaluated are skipped.
    const existing = ctx.db
      .prepare('SELECT id FROM eval_runs WHERE job_id = ? ORDER BY id DESC LIMIT 1')
      .get(job.jobId) as { id: number } | undefined;
    const report = await runEval(
      await selectionDeps(ctx, job.signal, request.preset),
      existing ? { ...request, resumeRunId: existing.id } : request,
      { signal: job.signal, report: job.report, jobId: job.jobId },
    );
    // The run to compare with: the last finished one of the same set before this one.
    return { runId: report.runId, summary: report.summary, baseRunId: previousRunId(ctx.db, report.runId) };
  });

  const start = (req: {
    setId: number;
    variants: EvalRequest['variants'];
    k?: number[];
    recallK?: number;
    preset?: SelectionPreset;
  }) => {
    const set = findLabelSet(ctx.db, req.setId);
    const settings = ctx.settings.get().selection;
    const preset = checkPreset(req.preset ?? settings.preset);
    const request: EvalRequest = {
      setId: set.id,
      variants: req.variants,
      k: req.k,
      recallK: req.recallK ?? settings.recallK,
      preset,
      maxTokens: settings.crossEncoderMaxTokens,
      llmBodyChars: settings.llmSelectorBodyChars,
      settings: { ...settings, preset },
    };
    return ctx.jobs.start(EVAL_JOB, request);
  };

  return {
    'labels.import': async (req) => {
      const { set, ...outcome } = await importLabelFile(ctx.db, req, ctx.clock());
      return { ...set, ...outcome };
    },
    'labels.list': async () => listLabelSets(ctx.db),
    'labels.get': async (req) => ({
      set: getLabelSetInfo(ctx.db, req.id),
      items: getLabelItems(ctx.db, req.id),
    }),
    'labels.saveItem': async (req) => saveLabelItem(ctx.db, req.setId, req.item, ctx.clock()),
    'labels.coverage': async (req) => {
      getLabelSetInfo(ctx.db, req.id);
      return goldCoverage(ctx.db, req.id);
    },
    'labels.export': async (req) => {
      const set = getLabelSetInfo(ctx.db, req.id);
      const out = exportLabels(set.name, getLabelItems(ctx.db, req.id), req.format, req.skill);
      if (req.path === undefined) return out;
      absolutePath(req.path);
      return { ...out, path: await writeNewFile(req.path, out.content, !!req.overwrite) };
    },
    'eval.run': async (req) => start(req),
    'eval.rerun': async (req) => {
      const last = lastRunOfSet(ctx.db, req.setId);
      if (last === null)
        throw new CuratorError(
          'NOT_FOUND',
          `Label set ${req.setId} has no finished run to repeat and compare with`,
        );
      const previous = getEvalRun(ctx.db, last).request;
      return start({
        setId: req.setId,
        variants: req.variants ?? previous.variants,
        k: req.k ?? previous.k,
        recallK: previous.recallK,
        // The same scorer as the run it repeats (a run from before presets were recorded: the one it ran with).
        preset: previous.preset ?? recordedPreset(getRunLibrary(ctx.db, last)?.engines.preset),
      });
    },
    'eval.list': async () => listEvalRuns(ctx.db),
    'eval.show': async (req) => getEvalReport(ctx.db, req.runId),
    'eval.compare': async (req) => compareRuns(ctx.db, req.runId, req.baseRunId),
    'eval.confusability': async (req) =>
      confusability(ctx.db, req.runId, { phiMargin: req.phiMargin, rhoMargin: req.rhoMargin }),
    'eval.library': async (req) => {
      getEvalRun(ctx.db, req.runId);
      return getRunLibrary(ctx.db, req.runId);
    },
    'eval.export': async (req) => {
      const exporter = exporters[req.format];
      if (!exporter)
        throw new CuratorError(
          'INVALID_ARGUMENT',
          `Unknown export format "${String(req.format)}"; use json, markdown or csv`,
        );
      if (req.path !== undefined) absolutePath(req.path);
      const report = getEvalReport(ctx.db, req.runId);
      const content = exporter.render(report);
      const fileName = `evaluation-${report.runId}.${exporter.ext}`;
      if (req.path === undefined) return { content, fileName };
      const target = await writeNewFile(req.path, content, !!req.overwrite);
      return { content, fileName, path: target };
    },
  };
}
