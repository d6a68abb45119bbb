// METHOD.md section 2: the execution graph. Each candidate becomes an edge src_k -> tgt_k between task states, found by
// aligning its precondition and completion states with the task's states; ties in an argmax go to the smaller index.
import { instructions } from './instructions';
import type { ScoreBook, ScoreRequest } from './scores';
import type { DroppedEdge } from './trace-types';

export interface GraphCandidate {
  candidate: number;
  /** p_k; null = None. */
  precondition: string | null;
  /** e_k. */
  completion: string;
}

export interface GraphEdge {
  candidate: number;
  src: number | null;
  tgt: number | null;
  srcScores: number[];
  tgtScores: (number | null)[];
  dropped: DroppedEdge | null;
}

/** What a task without a parse (n = 0) means for every skill, in words: there is no state to count. */
export const noTaskParseReason =
  'the task has no parse (no LLM is set up to parse it, and none was given), so only relevance (ρ) ranks the skills';

/** Index of the largest value; the first one on ties. */
export function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/**
 * src/tgt for every candidate. With `prune`, argmax ranges of one element are not scored (their argmax is known) and
 * completions are scored only over their tgt range; without it, every (state, p_k) and (state, e_k) pair the formulas
 * can touch is scored in one pass.
 */
export async function buildGraph(
  states: readonly string[],
  cands: readonly GraphCandidate[],
  book: ScoreBook,
  prune: boolean,
): Promise<GraphEdge[]> {
  const n = states.length;
  if (n <= 1)
    return cands.map((c) => ({
      candidate: c.candidate,
      src: null,
      tgt: null,
      srcScores: [],
      tgtScores: [],
      dropped: {
        reason:
          n === 0
            ? noTaskParseReason
            : `src + 1 >= n: the task has ${n} state(s), so no transition for the skill to advance`,
      },
    }));

  // src_k = 0 if p_k is None, else argmax over 0 <= i <= n-2 of r(s_i, p_k).
  const srcRange = states.slice(0, n - 1);
  const scoreSrc = cands.filter((c) => c.precondition !== null && (!prune || srcRange.length > 1));
  const srcFlat = await book.scores(
    instructions.align,
    scoreSrc.flatMap((c) => srcRange.map((s): ScoreRequest => ({ query: s, doc: c.precondition! }))),
  );
  const srcScores = new Map(
    scoreSrc.map((c, j) => [c.candidate, srcFlat.slice(j * srcRange.length, (j + 1) * srcRange.length)]),
  );
  const src = new Map(
    cands.map((c) => [c.candidate, c.precondition === null ? 0 : argmax(srcScores.get(c.candidate) ?? [0])]),
  );

  // tgt_k = src_k + 1 + argmax over 0 <= j <= n-src_k-2 of r(s_(src_k+1+j), e_k).
  const tgtRequests: { candidate: number; state: number }[] = [];
  for (const c of cands) {
    const from = prune ? src.get(c.candidate)! + 1 : 1;
    if (prune && n - 1 - from < 1) continue;
    for (let i = from; i <= n - 1; i++) tgtRequests.push({ candidate: c.candidate, state: i });
  }
  const completion = new Map(cands.map((c) => [c.candidate, c.completion]));
  const tgtFlat = await book.scores(
    instructions.align,
    tgtRequests.map((t) => ({ query: states[t.state]!, doc: completion.get(t.candidate)! })),
  );
  const tgtScores = new Map(cands.map((c) => [c.candidate, new Array<number | null>(n).fill(null)]));
  tgtRequests.forEach((t, i) => (tgtScores.get(t.candidate)![t.state] = tgtFlat[i]!));

  return cands.map((c) => {
    const s = src.get(c.candidate)!;
    const row = tgtScores.get(c.candidate)!;
    const range = row.slice(s + 1).map((v) => v ?? 0);
    return {
      candidate: c.candidate,
      src: s,
      tgt: s + 1 + argmax(range),
      srcScores: srcScores.get(c.candidate) ?? [],
      tgtScores: row,
      dropped: null,
    };
  });
}
