// Aligns the graph's edges in rounds of descending w = σ(ρ) and stops once the edges still open cannot change a split
// point (split-bound.ts): their alignment pairs are never scored. The answer is the one aligning every edge gives.
import { buildGraph, type GraphCandidate, type GraphEdge } from './graph';
import type { ScoreBook } from './scores';
import { nodeWeights } from './split';
import { lightTail, roundingSlack, settledMargin, smallestMargin } from './split-bound';
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
 * With `alignRound` > 0 and n >= 3 (with n = 2 there is no inner node and alignment needs no score anyway), aligns the
 * `alignRound` heaviest candidates first, then all but the lightest tail the margins could still leave open, then the
 * rest, stopping as soon as every inner node's decision is settled; otherwise aligns all of them at once as buildGraph
 * does.
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
  let next = order.slice(0, options.alignRound);
  for (let round = 1; next.length > 0; round++) {
    for (const e of await buildGraph(states, next, book, true)) placed.set(e.candidate, e);
    const rest = order.filter((c) => !placed.has(c.candidate));
    if (rest.length === 0) break;
    const openWeight = rest.reduce((sum, c) => sum + c.w, 0);
    // In the candidates' own order, as the full computation adds them.
    const aligned = cands.flatMap((c) => {
      const e = placed.get(c.candidate);
      return e ? [{ src: e.src!, tgt: e.tgt!, w: c.w }] : [];
    });
    const nodes = nodeWeights(n, aligned);
    const margin = settledMargin(nodes, openWeight, slack);
    if (margin !== null) {
      open = { openWeight, smallestMargin: margin };
      break;
    }
    // Each round costs every state's prompt head again, so there are at most three: the next one aligns all but the
    // lightest edges that the present margins could leave open, the third whatever is left.
    next = round === 1 ? rest.slice(0, rest.length - lightTail(rest, smallestMargin(nodes) - slack)) : rest;
    if (next.length === 0) next = rest;
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
