// METHOD.md section 1: the candidate list C. The recall itself (dense cosine, or BM25 without models) is injected;
// this turns its hits into selection inputs and never fixes the size of the answer.
import type { CandidateInput, SelectionInput, SkillStates, TaskParse } from './trace-types';

export interface RecallHit {
  skillId: number;
  /** cos(E(q), E(m_k)) for dense recall; the engine's score otherwise. Larger is better. */
  score: number;
}

/** The K best skills for a query, best first. */
export type RecallFn = (query: string, K: number) => Promise<RecallHit[]> | RecallHit[];

export interface SkillForSelection {
  id: number;
  name: string;
  description: string;
  body: string;
  /** null: not parsed (or the parse failed). */
  states: SkillStates | null;
}

export type SkillLoader = (ids: number[]) => Promise<SkillForSelection[]> | SkillForSelection[];

export interface RecallResult {
  input: SelectionInput;
  hits: RecallHit[];
}

/** C for a task; an empty library or an empty recall gives an input with no candidates and the reason. */
export async function recallCandidates(
  task: string,
  parse: TaskParse | null,
  K: number,
  recall: RecallFn,
  loadSkills: SkillLoader,
  librarySize?: number,
): Promise<RecallResult> {
  if (librarySize === 0)
    return { input: { task, parse, candidates: [], emptyReason: 'The library is empty' }, hits: [] };
  const hits = (await recall(task, K)).slice(0, K);
  if (hits.length === 0)
    return {
      input: { task, parse, candidates: [], emptyReason: 'The recall found no skill for this task' },
      hits,
    };
  const skills = new Map((await loadSkills(hits.map((h) => h.skillId))).map((s) => [s.id, s]));
  const candidates: CandidateInput[] = [];
  for (const h of hits) {
    const s = skills.get(h.skillId);
    if (!s) continue; // removed between recall and load
    candidates.push({
      skillId: s.id,
      name: s.name,
      description: s.description,
      body: s.body,
      recallScore: h.score,
      states: s.states,
    });
  }
  return { input: { task, parse, candidates }, hits };
}

/** Share of gold names found in the recall (Recall@K), so recall misses can be told from selection misses. */
export function recallAtK(recalledNames: readonly string[], gold: readonly string[]): number {
  if (gold.length === 0) return 1;
  const got = new Set(recalledNames);
  return gold.filter((g) => got.has(g)).length / gold.length;
}
