// Keyword search over the library (FTS5, BM25): name weighs most, then description, then body and reference text.
// User text never reaches FTS5 syntax: it is cut into words and each word is quoted.
import type { Db } from '../store/db';
import { filterSql, pageOf, type SkillFilter } from '../store/library-filter';
import { summaryColumns, type SkillSummary } from '../store/library-repo';

/** Marks around matched words in snippets: control characters, so no skill text can forge or break them. */
export const highlightStart = '\u0002';
export const highlightEnd = '\u0003';

/** BM25 column weights, in the order of the skills_fts columns (name, description, body, refs). */
export const keywordWeights = { name: 10, description: 4, body: 1, refs: 1 };

const maxTerms = 32;

export interface KeywordQuery extends SkillFilter {
  /** What the user typed; any text is safe. */
  query: string;
  limit?: number;
  offset?: number;
}

export interface KeywordHit {
  skill: SkillSummary;
  /** BM25 relevance, larger is better (FTS5's rank negated). */
  score: number;
  /** 1-based place in the whole result. */
  rank: number;
  /** Text around the best match; matched words sit between highlightStart and highlightEnd. */
  snippet: string;
}

export interface KeywordResult {
  total: number;
  hits: KeywordHit[];
  /** 'all' when every word had to match, 'any' when no skill had all and the search fell back to any word. */
  matched: 'all' | 'any' | 'none';
  terms: string[];
}

/** Words of a query as FTS5 sees words (letters and digits), lowercased, deduplicated. */
export function queryTerms(text: string): string[] {
  const words = (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, maxTerms);
  return [...new Set(words)];
}

export function matchExpression(terms: string[], join: 'AND' | 'OR'): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(` ${join} `);
}

export function searchKeyword(db: Db, query: KeywordQuery): KeywordResult {
  const { limit, offset } = pageOf(query.limit, query.offset, 200);
  const terms = queryTerms(query.query ?? '');
  if (terms.length === 0) return { total: 0, hits: [], matched: 'none', terms };
  const all = run(db, matchExpression(terms, 'AND'), query, limit, offset);
  if (all.total > 0 || terms.length === 1) return { ...all, matched: all.total > 0 ? 'all' : 'none', terms };
  const any = run(db, matchExpression(terms, 'OR'), query, limit, offset);
  return { ...any, matched: any.total > 0 ? 'any' : 'none', terms };
}

function run(
  db: Db,
  match: string,
  filter: SkillFilter,
  limit: number,
  offset: number,
): { total: number; hits: KeywordHit[] } {
  const { where, params } = filterSql(db, 's', filter);
  const clause = ['skills_fts MATCH ?', ...where].join(' AND ');
  const from = 'FROM skills_fts JOIN skills s ON s.id = skills_fts.rowid';
  const total = (
    db.prepare(`SELECT COUNT(*) AS n ${from} WHERE ${clause}`).get(match, ...params) as { n: number }
  ).n;
  if (total === 0) return { total, hits: [] };
  const w = keywordWeights;
  const rows = db
    .prepare(
      `SELECT ${summaryColumns(db)},
         -bm25(skills_fts, ${w.name}, ${w.description}, ${w.body}, ${w.refs}) AS score,
         snippet(skills_fts, -1, '${highlightStart}', '${highlightEnd}', '…', 16) AS snippet
       ${from} WHERE ${clause}
       ORDER BY bm25(skills_fts, ${w.name}, ${w.description}, ${w.body}, ${w.refs}), s.id LIMIT ? OFFSET ?`,
    )
    .all(match, ...params, limit, offset) as (SkillSummary & { score: number; snippet: string })[];
  const hits = rows.map(({ score, snippet, ...skill }, i) => ({
    skill,
    score,
    snippet,
    rank: offset + i + 1,
  }));
  return { total, hits };
}

/** Splits a snippet into plain and highlighted runs, for hosts that render it (never as HTML). */
export function snippetRuns(snippet: string): { text: string; highlight: boolean }[] {
  const runs: { text: string; highlight: boolean }[] = [];
  let highlight = false;
  let current = '';
  for (const ch of snippet) {
    if (ch === highlightStart || ch === highlightEnd) {
      if (current) runs.push({ text: current, highlight });
      current = '';
      highlight = ch === highlightStart;
    } else current += ch;
  }
  if (current) runs.push({ text: current, highlight });
  return runs;
}
