// How the skills changed between two evaluation runs are counted, alike in the Evaluation screen and the report.
import type { EvalComparison, SkillChangeKind } from './api/evaluation';

const kindWords: Record<SkillChangeKind, string> = {
  'states-edited': 'states edited',
  'content-changed': 'content changed',
  added: 'added',
  removed: 'removed',
};

/** ": 592 added, 1 removed" — how many skills changed in each way (a skill can count under two). */
export function changeCounts(skills: EvalComparison['editedSkills']): string {
  if (skills.length === 0) return '';
  const counts = (Object.keys(kindWords) as SkillChangeKind[])
    .map((k) => [k, skills.filter((s) => s.changes.includes(k)).length] as const)
    .filter(([, n]) => n > 0);
  return `: ${counts.map(([k, n]) => `${n} ${kindWords[k]}`).join(', ')}`;
}
