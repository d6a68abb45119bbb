// METHOD.md section 4: stage-wise selection. Each stage's skill maximises phi_k = log sigma(rho_k) + log sigma(r(tau, c_k));
// the answer is the winners in stage order, repeats removed.
import { instructions } from './instructions';
import { logSigmoid, type ScoreBook, type ScoreRequest } from './scores';
import type { StageSpan } from './split';
import type { PhiEntry, StageTrace } from './trace-types';

export interface Contender {
  candidate: number;
  rho: number;
}

interface StageState {
  span: StageSpan;
  entries: Map<number, PhiEntry>;
  best: { candidate: number; phi: number } | null;
  next: number;
}

/** b beats a: larger phi, or equal phi and the smaller candidate index. */
function beats(phi: number, candidate: number, best: StageState['best']): boolean {
  return best === null || phi > best.phi || (phi === best.phi && candidate < best.candidate);
}

/**
 * Winners of every stage. With `prune`, contenders are scored in rounds of `batchSize` in descending rho order, and a
 * contender whose bound log sigma(rho_k) cannot beat the best phi so far is not scored: log sigma(r) <= 0, and IEEE
 * addition is monotone, so phi_k <= log sigma(rho_k) holds exactly in floating point and the argmax is unchanged.
 */
export async function stageWinners(
  spans: readonly StageSpan[],
  contenders: readonly Contender[],
  book: ScoreBook,
  options: { prune: boolean; batchSize: number },
): Promise<StageTrace[]> {
  const order = [...contenders].sort((a, b) => b.rho - a.rho || a.candidate - b.candidate);
  const bound = new Map(order.map((c) => [c.candidate, logSigmoid(c.rho)]));
  const stages: StageState[] = spans.map((span) => ({ span, entries: new Map(), best: null, next: 0 }));
  const roundSize = options.prune ? options.batchSize : Number.POSITIVE_INFINITY;

  for (;;) {
    const batch: { stage: StageState; candidate: number }[] = [];
    for (const stage of stages) {
      let taken = 0;
      while (taken < roundSize && stage.next < order.length) {
        const c = order[stage.next++]!;
        const b = bound.get(c.candidate)!;
        if (options.prune && !beats(b, c.candidate, stage.best)) {
          stage.entries.set(c.candidate, { candidate: c.candidate, fit: null, phi: null, prunedBound: b });
          continue;
        }
        batch.push({ stage, candidate: c.candidate });
        taken++;
      }
    }
    if (batch.length === 0) break;
    const fits = await book.scores(
      instructions['stage-fit'],
      batch.map((x): ScoreRequest => ({ query: x.stage.span.tau, doc: { candidate: x.candidate } })),
    );
    batch.forEach((x, i) => {
      const fit = fits[i]!;
      const phi = bound.get(x.candidate)! + logSigmoid(fit);
      x.stage.entries.set(x.candidate, { candidate: x.candidate, fit, phi });
      if (beats(phi, x.candidate, x.stage.best)) x.stage.best = { candidate: x.candidate, phi };
    });
  }

  return stages.map((s, index) => ({
    index,
    from: s.span.from,
    to: s.span.to,
    tau: s.span.tau,
    phi: [...s.entries.values()].sort((a, b) => a.candidate - b.candidate),
    winner: s.best?.candidate ?? null,
  }));
}

/** Stage winners in stage order with repeats removed; each keeps the stages it won. */
export function dedupWinners(stages: readonly StageTrace[]): { candidate: number; stages: number[] }[] {
  const out = new Map<number, number[]>();
  for (const s of stages) {
    if (s.winner === null) continue;
    const won = out.get(s.winner);
    if (won) won.push(s.index);
    else out.set(s.winner, [s.index]);
  }
  return [...out.entries()].map(([candidate, won]) => ({ candidate, stages: won }));
}
