// The exact cut for alignment: when is a split point settled before every edge is aligned? With n >= 2 every candidate
// is in the graph and its src/tgt only move In/Out/Cross, so once no placement of the edges still open can flip any
// inner node's decision, the stages are known and the open edges need no alignment scores (METHOD-notes "Exact cuts").
import type { NodeTrace } from './trace-types';

/**
 * An open edge adds to exactly one of In(i), Out(i), Cross(i) at each node (tgt <= i, src >= i, or src < i < tgt),
 * and at most its w there (the In/Out weights are w / (1 + x/d) <= w). So the open edges together raise any of the
 * three by at most W = Σ their w, and never lower one. A split (min(In, Out) > Cross) therefore holds for good when
 * min(In, Out) − Cross > W, and a non-split when Cross − min(In, Out) > W.
 */
export function splitMargin(node: NodeTrace): number {
  const low = Math.min(node.in, node.out);
  return node.split ? low - node.cross : node.cross - low;
}

/**
 * Room for floating-point rounding: every In/Out/Cross is a sum of at most `edges` terms in [0, 1], so the sum over
 * the aligned edges and the sum over all of them (in the order nodeWeights adds them) each differ from the exact sum
 * of the same terms by at most edges · 2^-53 · total. A margin larger than W by this much (with a factor of 8 to cover
 * the subtractions and W's own sum) leaves the decision the full computation makes unchanged.
 */
export function roundingSlack(edges: number, totalWeight: number): number {
  return 8 * (edges + 2) * Number.EPSILON * (1 + totalWeight);
}

/** The smallest margin over the inner nodes (1..n−2); Infinity when there is none. */
export function smallestMargin(nodes: readonly NodeTrace[]): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (const node of nodes)
    if (node.i >= 1 && node.i <= nodes.length - 2) smallest = Math.min(smallest, splitMargin(node));
  return smallest;
}

/** How many of the last (lightest) candidates weigh less than `room` together. */
export function lightTail(ordered: readonly { w: number }[], room: number): number {
  let sum = 0;
  let count = 0;
  for (let i = ordered.length - 1; i >= 0; i--) {
    sum += ordered[i]!.w;
    if (!(sum < room)) break;
    count++;
  }
  return count;
}

/**
 * The smallest margin over the inner nodes (1..n−2) when every one of them is settled against `openWeight`, else null.
 * `nodes` are In/Out/Cross over the aligned edges only.
 */
export function settledMargin(nodes: readonly NodeTrace[], openWeight: number, slack: number): number | null {
  let smallest = Number.POSITIVE_INFINITY;
  for (const node of nodes) {
    if (node.i < 1 || node.i > nodes.length - 2) continue;
    const margin = splitMargin(node);
    if (!(margin > openWeight + slack)) return null;
    smallest = Math.min(smallest, margin);
  }
  return smallest;
}
