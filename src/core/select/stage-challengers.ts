// "What would make skill X win stage j?" from a trace alone: the φ it must beat (METHOD.md §4, ties to the smaller
// index) and the stage-fit r(τ, c_X) that gives that φ with its ρ unchanged.
import type { StageChallenger, StageWhy } from '../../shared/why';
import { logSigmoid } from './scores';
import type { SelectionTrace, StageTrace } from './trace-types';

export const num = (x: number, digits = 2): string => (Object.is(x, -0) ? 0 : x).toFixed(digits);

/** The fit r with log σ(r) = target (target < 0): r = logit(e^target). */
export function fitForLogSigma(target: number): number | null {
  if (!(target < 0)) return null;
  return target - Math.log(-Math.expm1(target));
}

/**
 * The winner's φ, which the challenger must exceed (or reach, when its index is smaller: ties go to the smaller
 * index), and the fit at that boundary.
 */
export function challenge(
  stage: StageTrace,
  candidate: number,
  rho: number,
): { phiNeeded: number; fitNeeded: number | null; strict: boolean } | null {
  if (stage.winner === null || candidate === stage.winner) return null;
  const best = stage.phi.find((e) => e.candidate === stage.winner)?.phi;
  if (best === null || best === undefined) return null;
  return {
    phiNeeded: best,
    fitNeeded: fitForLogSigma(best - logSigmoid(rho)),
    strict: candidate > stage.winner,
  };
}

export function stageChallengers(trace: SelectionTrace): StageWhy[] {
  const name = (i: number): string => trace.candidates[i]?.name ?? `#${i}`;
  return trace.stages.map((stage) => {
    const winnerPhi = stage.phi.find((e) => e.candidate === stage.winner)?.phi ?? null;
    const challengers: StageChallenger[] = [];
    for (const e of stage.phi) {
      const rho = trace.candidates[e.candidate]?.rho;
      if (e.candidate === stage.winner || rho === null || rho === undefined) continue;
      const need = challenge(stage, e.candidate, rho);
      if (!need || winnerPhi === null) continue;
      const label = `stage ${stage.index + 1}`;
      const gap =
        e.phi !== null
          ? `its φ ${num(e.phi)} is ${num(winnerPhi - e.phi)} short of ${name(stage.winner!)}'s ${num(winnerPhi)}`
          : `it was not scored (its bound log σ(ρ) = ${num(e.prunedBound ?? logSigmoid(rho))} cannot reach ${name(stage.winner!)}'s ${num(winnerPhi)})`;
      const sentence =
        need.fitNeeded !== null
          ? `To win ${label}, ${name(e.candidate)} needs φ ${need.strict ? 'above' : 'of at least'} ${num(need.phiNeeded)}: a stage fit ${need.strict ? 'above' : 'of at least'} ${num(need.fitNeeded)} (now ${e.fit === null ? 'not scored' : num(e.fit)}); ${gap}.`
          : `No stage fit can make ${name(e.candidate)} win ${label}: ${gap}, and φ ≤ log σ(ρ) = ${num(logSigmoid(rho))}; only a higher ρ could.`;
      challengers.push({
        candidate: e.candidate,
        name: name(e.candidate),
        phi: e.phi,
        fit: e.fit,
        phiNeeded: need.phiNeeded,
        fitNeeded: need.fitNeeded,
        sentence,
      });
    }
    const deficit = (c: StageChallenger): number =>
      c.phi !== null ? c.phiNeeded - c.phi : c.phiNeeded - logSigmoid(trace.candidates[c.candidate]!.rho!);
    // Those a stage fit can make win come first, then those scored (the real runners-up, before a pruned bound),
    // closest first.
    challengers.sort(
      (a, b) =>
        Number(a.fitNeeded === null) - Number(b.fitNeeded === null) ||
        Number(a.phi === null) - Number(b.phi === null) ||
        deficit(a) - deficit(b) ||
        a.candidate - b.candidate,
    );
    return { stage: stage.index, tau: stage.tau, winner: stage.winner, challengers };
  });
}
