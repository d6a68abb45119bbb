// How two runs' trigger figures differ: per variant (k) and skill, precision and recall before and after, and the
// queries that flipped (a should-trigger query now answered with the skill or no longer, a should-not one likewise).
// This is the loop of a curator editing a skill's description, re-running and watching its figures move.
import type { EvalReport, TriggerChange, TriggerFlip } from '../../shared/api/evaluation';
import { queryKind } from './trigger-metrics';

const label = (v: { variant: string; k?: number }): string => (v.k ? `${v.variant}@${v.k}` : v.variant);

/** Null unless both runs have trigger figures. */
export function triggerChanges(base: EvalReport, current: EvalReport): TriggerChange[] | null {
  if (!base.triggers || !current.triggers) return null;
  const before = new Map(base.tasks.map((t) => [`${t.itemId}\u0001${label(t)}`, t]));
  const baseFigures = new Map(base.triggers.map((v) => [label(v), v]));
  const changes: TriggerChange[] = [];
  for (const v of current.triggers) {
    const b = baseFigures.get(label(v));
    if (!b) continue;
    const skills = [...new Set([...v.skills.map((s) => s.skill), ...b.skills.map((s) => s.skill)])].sort();
    const rows = current.tasks.filter((t) => label(t) === label(v));
    for (const skill of skills) {
      const flips: TriggerFlip[] = [];
      for (const t of rows) {
        const kind = queryKind(t, skill);
        const was = before.get(`${t.itemId}\u0001${label(t)}`);
        if (kind === null || !was || queryKind(was, skill) !== kind) continue;
        const [wasAnswered, isAnswered] = [was.answer.includes(skill), t.answer.includes(skill)];
        if (wasAnswered !== isAnswered)
          flips.push({
            itemId: t.itemId,
            task: t.task,
            shouldTrigger: kind,
            before: wasAnswered,
            after: isAnswered,
          });
      }
      changes.push({
        variant: v.variant,
        ...(v.k ? { k: v.k } : {}),
        skill,
        base: b.skills.find((s) => s.skill === skill) ?? null,
        current: v.skills.find((s) => s.skill === skill) ?? null,
        flips,
      });
    }
  }
  return changes;
}
