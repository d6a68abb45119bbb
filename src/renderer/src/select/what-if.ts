// What-if edits of a stored selection, kept per field and sent to select.replay in the engine's own edit form.
import type { TraceEdits } from '../../../shared/api';
import type { TraceEdit } from '../../../shared/trace';
import type { SkillEdit } from './TraceTables';

export interface WhatIf {
  states: Record<number, string>;
  skills: Record<string, SkillEdit>;
}

export const noEdits: WhatIf = { states: {}, skills: {} };

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
  return { exact };
}
