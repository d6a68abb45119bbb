// What-if edits of a stored selection, kept per field and sent to select.replay in the engine's own edit form.
import type { TraceEdits } from '../../../shared/api';
import type { TraceEdit } from '../../../shared/trace';
import type { SkillEdit } from './TraceTables';

export type ScoreEdit = Extract<TraceEdit, { kind: 'score' }>;

export interface WhatIf {
  states: Record<number, string>;
  skills: Record<string, SkillEdit>;
  /** Single scores set by hand (stage fit, alignment), by scoreEditKey. */
  scores: Record<string, ScoreEdit>;
}

export const noEdits: WhatIf = { states: {}, skills: {}, scores: {} };

/** One key per score a what-if can set, so a second edit of the same score replaces the first. */
export function scoreEditKey(e: ScoreEdit): string {
  if (e.use === 'relevance') return `rho:${e.skill}`;
  if (e.use === 'stage-fit') return `fit:${e.skill}@${e.tau}`;
  return `align:${e.skill}:${e.state}:${e.side}`;
}

export function withScore(whatIf: WhatIf, edit: ScoreEdit): WhatIf {
  return { ...whatIf, scores: { ...whatIf.scores, [scoreEditKey(edit)]: edit } };
}

/** What-if edits in the engine's own form, so they also reach candidates without a library id and single scores. */
export function toTraceEdits(whatIf: WhatIf): TraceEdits {
  const exact: TraceEdit[] = Object.entries(whatIf.states).map(([index, text]) => ({
    kind: 'state',
    index: Number(index),
    text,
  }));
  for (const s of Object.values(whatIf.skills)) {
    exact.push({
      kind: 'skill-states',
      name: s.name,
      precondition: s.precondition,
      completion: s.completion,
    });
    if (s.rho !== undefined) exact.push({ kind: 'score', use: 'relevance', skill: s.name, r: s.rho });
  }
  exact.push(...Object.values(whatIf.scores));
  return { exact };
}
