// METHOD.md section 3: split points. In/Out/Cross weigh the edges that end before, start after, or pass over each node;
// a node where both In and Out beat Cross splits the task into stages.
import type { NodeTrace } from './trace-types';

export interface WeightedEdge {
  src: number;
  tgt: number;
  w: number;
}

/** In(i), Out(i), Cross(i) for every node i of a graph with n >= 2 nodes, and whether i is a split point. */
export function nodeWeights(n: number, edges: readonly WeightedEdge[]): NodeTrace[] {
  const d = n - 1;
  const nodes: NodeTrace[] = [];
  for (let i = 0; i < n; i++) {
    let into = 0;
    let out = 0;
    let cross = 0;
    for (const e of edges) {
      if (e.tgt <= i) into += e.w / (1 + (i - e.tgt) / d);
      if (e.src >= i) out += e.w / (1 + (e.src - i) / d);
      if (e.src < i && i < e.tgt) cross += e.w;
    }
    const inner = i >= 1 && i <= n - 2;
    nodes.push({ i, in: into, out, cross, split: inner && into > cross && out > cross });
  }
  return nodes;
}

/** P = {0} ∪ split points ∪ {n-1}, ascending. */
export function stageBoundaries(n: number, splitPoints: readonly number[]): number[] {
  return [...new Set([0, ...splitPoints, n - 1])].sort((a, b) => a - b);
}

export interface StageSpan {
  from: number;
  to: number;
  tau: string;
}

/** Consecutive members [a, b] of P form a stage whose text is t_a..t_(b-1) joined by a space. */
export function stageSpans(boundaries: readonly number[], subtasks: readonly string[]): StageSpan[] {
  const spans: StageSpan[] = [];
  for (let s = 0; s + 1 < boundaries.length; s++) {
    const from = boundaries[s]!;
    const to = boundaries[s + 1]!;
    spans.push({ from, to, tau: subtasks.slice(from, to).join(' ') });
  }
  return spans;
}
