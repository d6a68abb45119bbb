// The working state of one selection: prepared candidates, the score book and the trace being filled in.
import { skillDocument } from './documents';
import { instructions } from './instructions';
import { ScoreBook, sigmoid, type ScoreMemo, type ScoreProvider } from './scores';
import type { CandidateTrace, SelectionInput } from './trace-types';

export interface SelectionContext {
  input: SelectionInput;
  candidates: CandidateTrace[];
  book: ScoreBook;
  notes: string[];
}

export function createContext(
  input: SelectionInput,
  scorer: ScoreProvider | null,
  known: ScoreMemo,
  maxTokens: number,
  clock: () => number,
  onScored?: (pairsScored: number) => void,
  /** False for the ranked variants: they read no states, so a skill without a parse is no news to them. */
  readsSkillStates = true,
): SelectionContext {
  const notes: string[] = [];
  const candidates = input.candidates.map((c, index): CandidateTrace => {
    // METHOD.md edge case: a skill without a parse is p = None, e = its description.
    if (!c.states && readsSkillStates)
      notes.push(`${c.name} has no parse: used precondition None and its description as completion`);
    return {
      index,
      name: c.name,
      skillId: c.skillId,
      recallScore: c.recallScore,
      precondition: c.states ? c.states.precondition : null,
      completion: c.states ? c.states.completion : c.description,
      parseMissing: !c.states,
      rho: null,
      w: null,
      src: null,
      tgt: null,
      srcScores: [],
      tgtScores: [],
      dropped: null,
    };
  });
  const documents = input.candidates.map((c) => skillDocument(c));
  return {
    input,
    candidates,
    book: new ScoreBook(scorer, documents, known, maxTokens, clock, onScored),
    notes,
  };
}

/** rho_k = r(q, c_k) and w_k = sigma(rho_k) for every candidate. */
export async function scoreRelevance(ctx: SelectionContext): Promise<void> {
  const rhos = await ctx.book.scores(
    instructions.relevance,
    ctx.candidates.map((c) => ({ query: ctx.input.task, doc: { candidate: c.index } })),
  );
  ctx.candidates.forEach((c, i) => {
    c.rho = rhos[i]!;
    c.w = sigmoid(c.rho);
  });
}

/** Candidate indices ordered by a score, descending; ties keep recall order. */
export function rankBy(indices: readonly number[], score: (i: number) => number): number[] {
  return [...indices].sort((a, b) => score(b) - score(a) || a - b);
}
