// The lexical default of the recall (METHOD.md step 1 without models): BM25F over the skill's name, description and
// body with field weights (library-index.ts), so a skill whose body says what a stage needs is still recalled; copies
// of one skill take one place (near-duplicates.ts).
import { filteredSkillIds, hasFilters } from '../../search/skill-filter';
import type { Db } from '../../store/db';
import type { SkillFilter } from '../../store/library-filter';
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
  return rankLibrary(db, query, k, allowed);
}
