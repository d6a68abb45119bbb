// The lexical default of the recall (METHOD.md step 1 without models): BM25 from FTS5 over the recall text m_k,
// i.e. the name and description columns of skills_fts only.
import { filterCondition } from '../../search/skill-filter';
import type { Db } from '../../store/db';
import type { SkillFilter } from '../../store/library-filter';
import { words } from './text-terms';

export interface LexicalCandidate {
  skillId: number;
  /** -bm25: larger is better; comparable only within one query. */
  score: number;
}

export const lexicalRecallEngine = 'lexical:bm25';

// The name says what a skill is; weight it above the description.
const nameWeight = 2;
const descriptionWeight = 1;

/** An FTS5 query that matches any word of `text` in name or description; null when text has no words. */
export function recallMatchQuery(text: string): string | null {
  const unique = [...new Set(words(text))];
  if (unique.length === 0) return null;
  // Quoting makes every word a literal string, so FTS5 operators in user text (NEAR, -, ^, *) stay plain words.
  return `{name description} : (${unique.map((w) => `"${w}"`).join(' OR ')})`;
}

export function lexicalRecall(
  db: Db,
  query: string,
  k: number,
  filters: SkillFilter = {},
): LexicalCandidate[] {
  const match = recallMatchQuery(query);
  if (match === null || k <= 0) return [];
  const f = filterCondition(db, filters);
  const bm25 = `bm25(skills_fts, ${nameWeight}, ${descriptionWeight}, 0, 0)`;
  return db
    .prepare(
      `SELECT s.id AS skillId, -${bm25} AS score
       FROM skills_fts JOIN skills s ON s.id = skills_fts.rowid
       WHERE skills_fts MATCH ? AND ${f.where}
       ORDER BY ${bm25}, s.id LIMIT ?`,
    )
    .all(match, ...f.params, k) as LexicalCandidate[];
}
