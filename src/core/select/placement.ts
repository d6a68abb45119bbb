// Aligns the graph's edges in rounds of descending w = σ(ρ) and stops once the edges still open cannot change a split
// point (split-bound.ts): their alignment pairs are never scored. The answer is the one aligning every edge gives.
import { buildGraph, type GraphCandidate, type GraphEdge } from './graph';
import type { ScoreBook } from './scores';
import { nodeWeights } from './split';
import { roundingSlack, settledMargin } from './split-bound';
import type { UnplacedEdge } from './trace-types';

export interface WeightedCandidate extends GraphCandidate {
  w: number;
}

export interface Placement {
  /** One per candidate, in the input order; open edges have src = tgt = null and `open` says why. */
  edges: (GraphEdge & { open?: UnplacedEdge })[];
  /** Set when some edges were left open: their total weight and the smallest split margin it stayed under. */
  open: UnplacedEdge | null;
}

/**
 * With `alignRound` > 0 and n >= 3 (with n = 2 there is no inner node and alignment needs no score anyway), aligns
 * `alignRound` candidates at a time, heaviest first, until every inner node's decision is settled; otherwise aligns
 * all of them at once as buildGraph does.
 */
export async function placeEdges(
  states: readonly string[],
  cands: readonly WeightedCandidate[],
  book: ScoreBook,
  options: { prune: boolean; alignRound: number },
): Promise<Placement> {
  const n = states.length;
  if (!options.prune || options.alignRound <= 0 || n <= 2)
    return { edges: await buildGraph(states, cands, book, options.prune), open: null };

  const order = [...cands].sort((a, b) => b.w - a.w || a.candidate - b.candidate);
  const slack = roundingSlack(
    cands.length,
    cands.reduce((sum, c) => sum + c.w, 0),
  );
  const placed = new Map<number, GraphEdge>();
  let open: UnplacedEdge | null = null;
  for (let at = 0; at < order.length; at += options.alignRound) {
    for (const e of await buildGraph(states, order.slice(at, at + options.alignRound), book, true))
      placed.set(e.candidate, e);
    const rest = order.slice(at + options.alignRound);
    if (rest.length === 0) break;
    const openWeight = rest.reduce((sum, c) => sum + c.w, 0);
    // In the candidates' own order, as the full computation adds them.
    const aligned = cands.flatMap((c) => {
      const e = placed.get(c.candidate);
      return e ? [{ src: e.src!, tgt: e.tgt!, w: c.w }] : [];
    });
    const margin = settledMargin(nodeWeights(n, aligned), openWeight, slack);
    if (margin !== null) {
      open = { openWeight, smallestMargin: margin };
      break;
    }
  }
  return {
    edges: cands.map(
      (c) =>
        placed.get(c.candidate) ?? {
          candidate: c.candidate,
          src: null,
          tgt: null,
          srcScores: [],
          tgtScores: new Array<number | null>(n).fill(null),
          dropped: null,
          open: open!,
        },
    ),
    open,
  };
}
