// "No skill fits" as an answer (issue 26): a product rule on top of METHOD.md, which always answers some skill. When
// the best candidate's rho = r(task, skill text) is below the threshold, and, for a task of two or more steps, so is
// the best stage fit r(stage, skill) of the stage winners, the selection answers nothing and says why. The stage fit
// counts because a long task of several steps matches each step's skill only in part (its rho is low), while that
// skill fits its stage well; a one-step task's stage is the task, shorter, and any shared word would lift its fit. Only the variants that score rho abstain; the dense and LLM baselines answer as they always did.
import type { AbstentionTrace, CandidateTrace, Variant } from './trace-types';
import type { VariantResult } from './variants';

const abstaining: readonly Variant[] = ['full', 'no-graph', 'no-split', 'no-parse'];

/** Checks the rule on a variant's result, emptying its answer when it abstains; undefined where it does not apply. */
export function abstain(
  result: VariantResult,
  candidates: readonly CandidateTrace[],
  variant: Variant,
  threshold: number,
  /** Sub-tasks of the task's parse (0 without one). */
  steps: number,
): AbstentionTrace | undefined {
  if (!abstaining.includes(variant)) return undefined;
  let best: CandidateTrace | null = null;
  for (const c of candidates) if (c.rho !== null && (best === null || c.rho > best.rho!)) best = c;
  const wouldAnswer = result.answer.map((a) => a.name);
  const fits = (steps >= 2 ? result.stages : []).flatMap(
    (s) => s.phi.find((e) => e.candidate === s.winner && e.fit !== null)?.fit ?? [],
  );
  const bestFit = fits.length > 0 ? Math.max(...fits) : null;
  const abstained =
    best !== null &&
    best.rho! < threshold &&
    (bestFit === null || bestFit < threshold) &&
    wouldAnswer.length > 0;
  if (abstained) {
    result.answer = [];
    result.reason =
      `No skill fits: the best candidate, ${best!.name}, has ρ ${best!.rho!.toFixed(2)}` +
      (bestFit === null ? '' : ` and the best stage fit is ${bestFit.toFixed(2)}`) +
      `, below the abstain threshold ${threshold}`;
  }
  return {
    threshold,
    bestRho: best?.rho ?? null,
    best: best?.name ?? null,
    ...(bestFit === null ? {} : { bestStageFit: bestFit }),
    abstained,
    wouldAnswer,
  };
}
