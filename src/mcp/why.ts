// One sentence of why per skill in a selection's answer, and the stage it serves: the same sentences as the lab,
// the CLI and the HTTP API (src/core/select/explain.ts).
import { explainSelection } from '../core/select/explain';
import type { SelectionTrace, StageTrace } from '../shared/trace';

export interface ExplainedPick {
  name: string;
  /** The stage(s) of the task this skill serves (stage variants); empty for ranked variants. */
  stages: { index: number; of: number; text: string }[];
  /** 1-based rank (ranked variants). */
  rank?: number;
  why: string;
}

export function explainAnswer(t: SelectionTrace): ExplainedPick[] {
  const picks = explainSelection(t).picks;
  return t.answer.map((a, i) => {
    const stages = a.stages
      .map((i) => t.stages.find((s) => s.index === i))
      .filter((s): s is StageTrace => s !== undefined);
    const why = picks[i]?.sentence ?? t.reason ?? 'Chosen by the selection (no stage or rank recorded).';
    return {
      name: a.name,
      stages: stages.map((s) => ({ index: s.index, of: t.stages.length, text: s.tau })),
      ...(a.rank !== undefined ? { rank: a.rank } : {}),
      why,
    };
  });
}
