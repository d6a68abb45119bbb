// The report of an evaluation run: means per variant (and k), Recall@K of the recall on its own, per-task rows and
// the tasks where variants disagree, and per-skill trigger figures on a set of trigger queries; exported as JSON,
// Markdown or CSV.
import type { VariantSummary, EvalTaskRow, TaskDifference, EvalReport } from '../../shared/api/evaluation';
export type { VariantSummary, EvalTaskRow, TaskDifference, EvalReport };
import type { Db } from '../store/db';
import type { Variant } from '../select/trace-types';
import { getEvalRun, getRecall, getResults } from './eval-store';
import { getLabelItems, getLabelSetInfo } from './label-store';
import { meanMetrics } from './metrics';
import { isTriggerStyle, triggerFigures, triggerSkills } from './trigger-metrics';
import { variantsDiffer } from './variants-differ';

const label = (v: { variant: Variant; k?: number }): string => (v.k ? `${v.variant}@${v.k}` : v.variant);

export function getEvalReport(db: Db, runId: number): EvalReport {
  const run = getEvalRun(db, runId);
  const set = getLabelSetInfo(db, run.setId);
  const items = new Map(getLabelItems(db, run.setId).map((i, position) => [i.id, { ...i, position }]));
  const recall = getRecall(db, runId);
  const results = getResults(db, runId).filter((r) => items.has(r.itemId));
  const order = (v: Variant): number => run.request.variants.indexOf(v);
  results.sort(
    (a, b) =>
      items.get(a.itemId)!.position - items.get(b.itemId)!.position ||
      order(a.variant) - order(b.variant) ||
      a.k - b.k,
  );

  const tasks: EvalTaskRow[] = results.map((r) => {
    const item = items.get(r.itemId)!;
    return {
      ...r.metrics,
      itemId: r.itemId,
      task: item.task,
      variant: r.variant,
      ...(r.k > 0 ? { k: r.k } : {}),
      gold: item.gold,
      ...(item.avoid ? { avoid: item.avoid } : {}),
      answer: r.answer,
      recallAtK: recall.get(r.itemId)?.recallAtK ?? 0,
      selectionRunId: r.selectionRunId,
      error: r.error,
    };
  });

  const groups = new Map<string, EvalTaskRow[]>();
  for (const t of tasks) groups.set(label(t), [...(groups.get(label(t)) ?? []), t]);
  const summary: VariantSummary[] = [...groups.values()]
    .map((rows) => ({
      variant: rows[0]!.variant,
      ...(rows[0]!.k ? { k: rows[0]!.k } : {}),
      ...meanMetrics(rows),
      errors: rows.filter((r) => r.error !== null).length,
    }))
    .sort((a, b) => order(a.variant) - order(b.variant) || (a.k ?? 0) - (b.k ?? 0));

  const byItem = new Map<string, EvalTaskRow[]>();
  for (const t of tasks) byItem.set(t.itemId, [...(byItem.get(t.itemId) ?? []), t]);
  const differences: TaskDifference[] = [];
  for (const [itemId, rows] of byItem) {
    if (!variantsDiffer(rows)) continue;
    const first = rows[0]!;
    differences.push({
      itemId,
      task: first.task,
      gold: first.gold,
      recallAtK: first.recallAtK,
      answers: rows.map((r) => ({
        variant: r.variant,
        ...(r.k ? { k: r.k } : {}),
        answer: r.answer,
        f1: r.f1,
      })),
    });
  }

  // Tasks no skill fits have nothing to recall.
  const noFit = new Set([...items.values()].filter((i) => i.gold.length === 0).map((i) => i.id));
  const recalls = [...recall.entries()].filter(([id]) => !noFit.has(id)).map(([, r]) => r.recallAtK);
  const labels = [...items.values()];
  return {
    runId,
    setId: run.setId,
    setName: set.name,
    status: run.status,
    variants: run.request.variants,
    k: run.request.k,
    recallK: run.request.recallK,
    engines: run.engines,
    recallAtK: recalls.length === 0 ? 0 : recalls.reduce((s, x) => s + x, 0) / recalls.length,
    summary,
    tasks,
    differences,
    ...(isTriggerStyle(labels) ? { triggers: triggerFigures(tasks, triggerSkills(labels)) } : {}),
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}`;
const num = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function reportToMarkdown(r: EvalReport): string {
  const lines = [
    `# Evaluation run ${r.runId}: ${cell(r.setName)}`,
    '',
    `Status: ${r.status}. Recall: ${r.engines.recall} (K = ${r.recallK}); cross-encoder: ${r.engines.crossEncoder ?? 'none'}; LLM: ${r.engines.llm ?? 'none'}.`,
    '',
    `Recall@${r.recallK} of the recall stage: ${pct(r.recallAtK)} % of gold skills reach the candidates.`,
    '',
    '| variant | P | R | F1 | exact | Hit@1 | stage cov. | size | pairs | LLM calls | tokens | ms/task | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.summary.map(
      (s) =>
        `| ${label(s)} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} | ${pct(s.exactMatch)} | ${s.hitAt1 === undefined ? '–' : pct(s.hitAt1)} | ${pct(s.stageCoverage)} | ${s.meanAnswerSize.toFixed(2)} | ${num(s.crossEncoderPairs)} | ${num(s.llmCalls)} | ${num(s.tokens)} | ${num(s.msPerTask)} | ${s.errors} |`,
    ),
    '',
    'P, R, F1, exact, Hit@1 and stage coverage in %; Hit@1: the first skill answered (the top of a ranking, the winner of a graph answer’s first stage) is a gold skill or in a gold group, for any stage; costs are means per task; pairs are what each variant needs scored on its own (by the cross-encoder, or the scorer standing in for it); ms/task is measured with scores shared between the variants of a task, in the order listed.',
    '',
    ...triggerLines(r),
    `## Tasks where variants differ (${r.differences.length})`,
    '',
  ];
  if (r.differences.length > 0) {
    lines.push('| task | gold | recall@K | answers (F1) |', '|---|---|---|---|');
    for (const d of r.differences)
      lines.push(
        `| ${cell(d.itemId)}: ${cell(d.task)} | ${cell(d.gold.join(', '))} | ${pct(d.recallAtK)} | ${d.answers
          .map((a) => `**${label(a)}** ${cell(a.answer.join(', ') || '(none)')} (${pct(a.f1)})`)
          .join('<br>')} |`,
      );
  }
  return lines.join('\n') + '\n';
}

const share = (x: number | null): string => (x === null ? '–' : pct(x));

function triggerLines(r: EvalReport): string[] {
  if (!r.triggers) return [];
  return [
    '## Trigger figures per skill',
    '',
    '| skill | variant | should trigger | triggered | should not | falsely triggered | trigger P | trigger R |',
    '|---|---|---|---|---|---|---|---|',
    ...r.triggers.flatMap((v) =>
      v.skills.map(
        (s) =>
          `| ${cell(s.skill)} | ${label(v)} | ${s.shouldTrigger} | ${s.triggered} | ${s.shouldNot} | ${s.falselyTriggered} | ${share(s.precision)} | ${share(s.recall)} |`,
      ),
    ),
    '',
    'A should-trigger query names the skill in its gold, a should-not-trigger one in its avoid (skill-creator’s should_trigger true and false); a query counts as triggered when the answer names the skill. Trigger P = triggered / (triggered + falsely triggered), trigger R = triggered / should trigger, in %.',
    '',
  ];
}

export function reportToJson(r: EvalReport): string {
  return JSON.stringify(r, null, 2);
}

const csvField = (v: string | number | boolean | undefined | null): string => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One row per task and variant (k); answers and gold joined with `;`. */
export function reportToCsv(r: EvalReport): string {
  const header = [
    'item',
    'task',
    'variant',
    'k',
    'gold',
    'answer',
    'precision',
    'recall',
    'f1',
    'exact',
    'hit_at_1',
    'stage_coverage',
    'answer_size',
    'recall_at_k',
    'differs_between_variants',
    'error',
  ];
  const differing = new Set(r.differences.map((d) => d.itemId));
  const rows = r.tasks.map((t) =>
    [
      t.itemId,
      t.task,
      t.variant,
      t.k,
      t.gold.join(';'),
      t.answer.join(';'),
      t.precision,
      t.recall,
      t.f1,
      t.exactMatch,
      t.hitAt1,
      t.stageCoverage,
      t.answerSize,
      t.recallAtK,
      differing.has(t.itemId),
      t.error,
    ]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...rows].join('\r\n') + '\r\n';
}
