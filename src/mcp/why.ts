// One sentence of why per skill in a selection's answer, and the stage it serves, read from the trace alone.
// A stand-in for the lab's trace explainer (src/core/select/explain.ts): swap the body of `explainAnswer` for it.
import type { AnswerItem, SelectionTrace, StageTrace } from '../shared/trace';

export interface ExplainedPick {
  name: string;
  /** The stage(s) of the task this skill serves (stage variants); empty for ranked variants. */
  stages: { index: number; of: number; text: string }[];
  /** 1-based rank (ranked variants). */
  rank?: number;
  why: string;
}

const f = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toFixed(3));

function stageSentence(t: SelectionTrace, a: AnswerItem, stage: StageTrace): string {
  const entry = stage.phi.find((e) => e.candidate === a.candidate);
  const rivals = stage.phi
    .filter((e) => e.candidate !== a.candidate && e.phi !== null)
    .sort((x, y) => y.phi! - x.phi!);
  const runnerUp = rivals[0];
  const rho = t.candidates[a.candidate]?.rho;
  const ahead = runnerUp
    ? `, ahead of ${t.candidates[runnerUp.candidate]?.name ?? `#${runnerUp.candidate}`} (φ ${f(runnerUp.phi)})`
    : ', the only candidate scored for it';
  const of = t.stages.length;
  return (
    `Best fit for stage ${stage.index + 1} of ${of} ("${stage.tau}"): φ ${f(entry?.phi)} from relevance ` +
    `to the task ρ ${f(rho)} and fit to the stage ${f(entry?.fit)}${ahead}.`
  );
}

function rankedSentence(t: SelectionTrace, a: AnswerItem): string {
  const entry = t.ranking.find((r) => r.candidate === a.candidate);
  const k = t.k ?? t.answer.length;
  if (t.variant === 'llm') return `The LLM selector listed it at position ${a.rank} of ${k}.`;
  if (t.variant === 'dense')
    return `Ranked ${a.rank} of ${k} by similarity to the task (recall score ${f(entry?.score)}).`;
  return `Ranked ${a.rank} of ${k} by relevance to the task (ρ ${f(entry?.score)}).`;
}

export function explainAnswer(t: SelectionTrace): ExplainedPick[] {
  return t.answer.map((a) => {
    const stages = a.stages
      .map((i) => t.stages.find((s) => s.index === i))
      .filter((s): s is StageTrace => s !== undefined);
    let why: string;
    if (stages.length > 0) why = stages.map((s) => stageSentence(t, a, s)).join(' ');
    else if (a.rank !== undefined) why = rankedSentence(t, a);
    else why = t.reason ?? 'Chosen by the selection (no stage or rank recorded).';
    return {
      name: a.name,
      stages: stages.map((s) => ({ index: s.index, of: t.stages.length, text: s.tau })),
      ...(a.rank !== undefined ? { rank: a.rank } : {}),
      why,
    };
  });
}
