// Per-skill trigger figures of an evaluation run, as skill-creator's description optimiser counts them: for each skill
// a set has should-trigger queries for (gold names it) or should-not-trigger ones (avoid names it), how often the
// selection answered it on each, and trigger precision and recall, per variant (and k).
import type { EvalTaskRow, TriggerFigures, VariantTriggerFigures } from '../../shared/api/evaluation';
import type { Labels } from './metrics';

export type { TriggerFigures, VariantTriggerFigures };

type Row = Pick<EvalTaskRow, 'itemId' | 'variant' | 'k' | 'answer' | 'gold' | 'avoid'>;

const label = (v: { variant: string; k?: number }): string => (v.k ? `${v.variant}@${v.k}` : v.variant);

/**
 * A set is trigger-style when some item names skills to avoid, or every item with gold skills has exactly one (a
 * skill's evals or its trigger queries); a set of multi-skill tasks gets no trigger figures.
 */
export function isTriggerStyle(items: readonly Labels[]): boolean {
  const withGold = items.filter((i) => i.gold.length > 0);
  return (
    items.some((i) => (i.avoid ?? []).length > 0) ||
    (withGold.length > 0 && withGold.every((i) => i.gold.length === 1))
  );
}

/** The skills with trigger figures: each item's single gold skill, and every skill an item avoids. */
export function triggerSkills(items: readonly Labels[]): string[] {
  const names = new Set<string>();
  for (const i of items) {
    if (i.gold.length === 1) names.add(i.gold[0]!);
    for (const a of i.avoid ?? []) names.add(a);
  }
  return [...names].sort();
}

/** Whether a row is a should-trigger (true) or should-not-trigger (false) query for `skill`, or neither (null). */
export function queryKind(row: Pick<Row, 'gold' | 'avoid'>, skill: string): boolean | null {
  if (row.gold.includes(skill)) return true;
  if ((row.avoid ?? []).includes(skill)) return false;
  return null;
}

export function skillTriggerFigures(rows: readonly Row[], skill: string): TriggerFigures {
  let shouldTrigger = 0;
  let triggered = 0;
  let shouldNot = 0;
  let falselyTriggered = 0;
  for (const r of rows) {
    const kind = queryKind(r, skill);
    if (kind === null) continue;
    const answered = r.answer.includes(skill);
    if (kind) {
      shouldTrigger++;
      if (answered) triggered++;
    } else {
      shouldNot++;
      if (answered) falselyTriggered++;
    }
  }
  return {
    skill,
    shouldTrigger,
    triggered,
    shouldNot,
    falselyTriggered,
    precision: triggered + falselyTriggered === 0 ? null : triggered / (triggered + falselyTriggered),
    recall: shouldTrigger === 0 ? null : triggered / shouldTrigger,
  };
}

/** The figures of every trigger skill for each variant (k) of a run's rows, in the rows' variant order. */
export function triggerFigures(rows: readonly Row[], skills: readonly string[]): VariantTriggerFigures[] {
  const byVariant = new Map<string, Row[]>();
  for (const r of rows) byVariant.set(label(r), [...(byVariant.get(label(r)) ?? []), r]);
  return [...byVariant.values()].map((mine) => ({
    variant: mine[0]!.variant,
    ...(mine[0]!.k ? { k: mine[0]!.k } : {}),
    skills: skills.map((s) => skillTriggerFigures(mine, s)),
  }));
}
