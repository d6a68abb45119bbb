// The lexical default of the recall (METHOD.md step 1 without models): BM25F over the skill's name, description and
// body with field weights (library-index.ts), so a skill whose body says what a stage needs is still recalled; copies
// of one skill take one place (near-duplicates.ts). A query that is a skill's name ("heat-object", "heat object")
// puts that skill first, at any library size.
import { filteredSkillIds, hasFilters } from '../../search/skill-filter';
import type { Db } from '../../store/db';
import type { SkillFilter } from '../../store/library-filter';
import { exactNameIds } from '../../search/keyword';
import { rankLibrary } from './library-index-cache';

export interface LexicalCandidate {
  skillId: number;
  /** BM25F: larger is better; comparable only within one query. */
  score: number;
}

export const lexicalRecallEngine = 'lexical:bm25';

export function lexicalRecall(
  db: Db,
  query: string,
  k: number,
  filters: SkillFilter = {},
): LexicalCandidate[] {
  if (k <= 0) return [];
  const allowed = hasFilters(filters) ? filteredSkillIds(db, filters) : undefined;
  const ranked = rankLibrary(db, query, k, allowed);
  const exact = exactNameIds(db, { ...filters, query });
  if (exact.length === 0) return ranked;
  // Above the best BM25F score, so the recall's own order (the dense variant) has them first too.
  const top = (ranked[0]?.score ?? 0) + 1;
  const first = exact.map((skillId, i) => ({ skillId, score: top + exact.length - i }));
  return [...first, ...ranked.filter((r) => !exact.includes(r.skillId))].slice(0, k);
}
