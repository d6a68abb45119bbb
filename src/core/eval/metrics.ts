// Per-task metrics of one answer against its labels, and their means over a set.
import type { TaskMetrics, MeanMetrics } from '../../shared/api/evaluation';
export type { TaskMetrics, MeanMetrics };

export interface Labels {
  gold: readonly string[];
  groups?: readonly (readonly string[])[];
  avoid?: readonly string[];
}

export interface AnswerCost {
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  ms: number;
}

export function taskMetrics(answer: readonly string[], labels: Labels, cost: AnswerCost): TaskMetrics {
  const a = new Set(answer);
  const g = new Set(labels.gold);
  const hits = [...a].filter((x) => g.has(x)).length;
  const precision = a.size === 0 ? 0 : hits / a.size;
  const recall = g.size === 0 ? 0 : hits / g.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const groups = labels.groups ?? labels.gold.map((x) => [x]);
  const covered = groups.filter((grp) => grp.some((x) => a.has(x))).length;
  const acceptable = new Set([...labels.gold, ...groups.flat()]);
  return {
    precision,
    recall,
    f1,
    exactMatch: a.size === g.size && hits === g.size,
    // The first skill answered: the top of a ranking, the first stage of a graph answer.
    hitAt1: answer.length > 0 && acceptable.has(answer[0]!),
    stageCoverage: groups.length === 0 ? 0 : covered / groups.length,
    answerSize: answer.length,
    ...(g.size === 0
      ? labels.avoid && labels.avoid.length > 0
        ? { avoidOnly: true }
        : { noFit: true }
      : {}),
    ...(labels.avoid && labels.avoid.length > 0
      ? { avoidedAnswered: labels.avoid.some((x) => a.has(x)) }
      : {}),
    ...cost,
  };
}

const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Means over a set. Tasks without gold skills have no precision or coverage to speak of: those no skill fits count
 * only in the abstention figures, those that only name skills to avoid only in `avoidedAnswered`, so a set that
 * mixes them with ordinary tasks keeps comparable precision and coverage.
 */
export function meanMetrics(tasks: readonly TaskMetrics[]): MeanMetrics {
  const sizes: Record<string, number> = {};
  for (const m of tasks) sizes[String(m.answerSize)] = (sizes[String(m.answerSize)] ?? 0) + 1;
  const all = tasks.filter((m) => !m.noFit && !m.avoidOnly);
  const noFit = tasks.filter((m) => m.noFit);
  const avoiding = tasks.filter((m) => m.avoidedAnswered !== undefined);
  const hits = all.filter((m) => m.hitAt1 !== undefined);
  return {
    tasks: tasks.length,
    ...(noFit.length > 0
      ? {
          noFitTasks: noFit.length,
          abstainedOnNoFit: mean(noFit.map((m) => (m.answerSize === 0 ? 1 : 0))),
        }
      : {}),
    ...(all.length > 0 ? { falseAbstentions: mean(all.map((m) => (m.answerSize === 0 ? 1 : 0))) } : {}),
    ...(avoiding.length > 0
      ? { avoidedAnswered: mean(avoiding.map((m) => (m.avoidedAnswered ? 1 : 0))) }
      : {}),
    precision: mean(all.map((m) => m.precision)),
    recall: mean(all.map((m) => m.recall)),
    f1: mean(all.map((m) => m.f1)),
    exactMatch: mean(all.map((m) => (m.exactMatch ? 1 : 0))),
    ...(hits.length > 0 ? { hitAt1: mean(hits.map((m) => (m.hitAt1 ? 1 : 0))) } : {}),
    stageCoverage: mean(all.map((m) => m.stageCoverage)),
    meanAnswerSize: mean(tasks.map((m) => m.answerSize)),
    answerSizes: sizes,
    crossEncoderPairs: mean(tasks.map((m) => m.crossEncoderPairs)),
    llmCalls: mean(tasks.map((m) => m.llmCalls)),
    tokens: mean(tasks.map((m) => m.tokens)),
    msPerTask: mean(tasks.map((m) => m.ms)),
  };
}
