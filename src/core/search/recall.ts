// The recall of METHOD.md step 1 as selection calls it: dense by cosine when a vector engine is set, else BM25 over the
// recall text (the lexical default), saying which engine produced the candidates.
import { lexicalRecall, lexicalRecallEngine } from '../models/lexical/lexical-recall';
import type { Embedder } from '../models/ports';
import type { Db } from '../store/db';
import type { SkillFilter } from '../store/library-filter';
import { denseRecall } from './dense';

export interface RecallCandidate {
  skillId: number;
  /** Cosine for dense recall, BM25 for lexical recall; larger is better. */
  score: number;
  /** Present when the recall was dense. */
  cosine?: number;
}

export interface RecallResult {
  engine: string;
  candidates: RecallCandidate[];
}

export async function recallSkills(
  deps: { db: Db; embedder?: Embedder; recallInstruction?: string },
  query: string,
  k: number,
  options: { filters?: SkillFilter; signal?: AbortSignal } = {},
): Promise<RecallResult> {
  const e = deps.embedder;
  if (!e || e.dim <= 0) {
    return { engine: lexicalRecallEngine, candidates: lexicalRecall(deps.db, query, k, options.filters) };
  }
  const hits = await denseRecall(deps.db, e, query, k, options.filters, {
    instruction: deps.recallInstruction,
    signal: options.signal,
  });
  return {
    engine: e.id,
    candidates: hits.map((h) => ({ skillId: h.skillId, score: h.cosine, cosine: h.cosine })),
  };
}
