// Keyword search over the library (FTS5, BM25): name weighs most, then description, then body and reference text.
// User text never reaches FTS5 syntax: it is cut into words and each word is quoted.
import type { Db } from '../store/db';
import { filterSql, pageOf, type SkillFilter } from '../store/library-filter';
import { summaryColumns, type SkillSummary } from '../store/library-repo';
import { stmt } from '../store/statements';
import { highlightEnd, highlightStart, snippetOfColumns } from './snippet-window';
import { documentFrequency, librarySize } from './term-stats';

/** Marks around matched words in snippets: control characters, so no skill text can forge or break them. */
export { highlightStart, highlightEnd };

/** BM25 column weights, in the order of the skills_fts columns (name, description, body, refs). */
export const keywordWeights = { name: 10, description: 4, body: 1, refs: 1 };

const maxTerms = 32;
/** Words this long or longer also match as prefixes. */
const minPrefix = 3;
/**
 * The any-word search ranks skills holding its rarest words: candidateShare of the library, or at least
 * minCandidates. Words held by more than commonShare of the library do not rank it (they weigh little).
 */
export const anyWordBounds = { candidateShare: 0.05, minCandidates: 1000, commonShare: 0.1 };
/** Exact-name matches put first, at most. */
const maxExact = 5;

// prettier-ignore
const stopwords = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'has', 'have', 'how', 'i', 'in', 'into', 'is', 'it',
  'its', 'me', 'my', 'of', 'on', 'or', 'our', 'so', 'that', 'the', 'their', 'then', 'there', 'these', 'this', 'to',
  'was', 'we', 'what', 'when', 'where', 'which', 'while', 'who', 'will', 'with', 'you', 'your',
]);

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

/**
 * An FTS5 expression for the words, each quoted. The last word of 3+ letters also matches as a prefix, as the user
 * may still be typing it ("micro" finds "microwave"); the quoted word stays beside its prefix because the index holds
 * stems ("microwav").
 */
export function matchExpression(terms: string[], join: 'AND' | 'OR', prefixLast = true): string {
  return terms
    .map((t, i) => {
      const quoted = `"${t.replaceAll('"', '""')}"`;
      return prefixLast && i === terms.length - 1 && t.length >= minPrefix
        ? `(${quoted} OR ${quoted}*)`
        : quoted;
    })
    .join(` ${join} `);
}

export function searchKeyword(db: Db, query: KeywordQuery): KeywordResult {
  const { limit, offset } = pageOf(query.limit, query.offset, 200);
  const terms = queryTerms(query.query ?? '');
  if (terms.length === 0) return { total: 0, hits: [], matched: 'none', terms };
  const searched = selectiveTerms(terms);
  const exact = exactNameIds(db, query);
  const allWords = matchExpression(searched, 'AND');
  const all = run(db, { count: allWords, rank: allWords }, query, limit, offset, exact);
  if (all.total > 0 || searched.length === 1)
    return { ...all, matched: all.total > 0 ? 'all' : 'none', terms };
  const any = run(db, anyWordExpressions(db, searched), query, limit, offset, exact);
  return { ...any, matched: any.total > 0 ? 'any' : 'none', terms };
}

/**
 * Any of the words, over a bounded candidate set: the skills holding one of the rarest words (together at most
 * candidateShare of the library, and at least the rarest word), ranked by every word that is not common. A sentence
 * typed as a query would otherwise match, and rank, nearly the whole library. `count` finds the same skills as `rank`
 * without reading the other words' lists (the rare words are among them).
 */
export function anyWordExpressions(
  db: Db,
  terms: string[],
  bounds = anyWordBounds,
): { count: string; rank: string } {
  const size = librarySize(db);
  const budget = Math.max(bounds.minCandidates, bounds.candidateShare * size);
  const held = terms
    .map((t) => ({ t, df: documentFrequency(db, t) }))
    .filter((x) => x.df > 0)
    .sort((a, b) => a.df - b.df);
  const rare: string[] = [];
  let covered = 0;
  for (const { t, df } of held) {
    if (rare.length > 0 && covered + df > budget) break;
    rare.push(t);
    covered += df;
  }
  const everyWord = matchExpression(terms, 'OR', false);
  if (rare.length === 0) return { count: everyWord, rank: everyWord };
  const rareWords = matchExpression(rare, 'OR', false);
  // Common words weigh little in BM25 (low IDF) but are the longest lists to read for every candidate.
  const ranked = held.filter((x, i) => i < rare.length || x.df <= bounds.commonShare * size).map((x) => x.t);
  if (ranked.length === rare.length) return { count: rareWords, rank: rareWords };
  return { count: rareWords, rank: `(${rareWords}) AND (${matchExpression(ranked, 'OR', false)})` };
}

/** Skills named exactly what was typed ("heat object" or "heat-object" for heat-object): these come first. */
export function exactNameIds(db: Db, query: KeywordQuery): number[] {
  const name = query.query.trim().toLowerCase().replace(/\s+/g, '-');
  // A name is at most 64 characters (the spec); longer text is a task, not a name.
  if (name === '' || name.length > 200) return [];
  const { where, params } = filterSql(db, 's', query);
  const clause = ['s.name = ?', ...where].join(' AND ');
  return stmt(db, `SELECT s.id FROM skills s WHERE ${clause} ORDER BY s.id LIMIT ${maxExact}`)
    .pluck()
    .all(name, ...params) as number[];
}

interface Ranked {
  id: number;
  score: number;
  h0: string | null;
  h1: string | null;
  h2: string | null;
  h3: string | null;
}

/**
 * Ranks inside the index with ORDER BY rank, so FTS5 sorts the matches itself and writes snippets only for the rows
 * returned; joins the skills table only when a filter needs it. Counts come from the index too.
 */
function run(
  db: Db,
  match: { count: string; rank: string },
  filter: SkillFilter,
  limit: number,
  offset: number,
  exact: number[],
): { total: number; hits: KeywordHit[] } {
  const { where, params } = filterSql(db, 's', filter);
  const from = where.length
    ? `FROM skills_fts JOIN skills s ON s.id = skills_fts.rowid WHERE ${['skills_fts MATCH ?', ...where].join(' AND ')}`
    : 'FROM skills_fts WHERE skills_fts MATCH ?';
  const total = stmt(db, `SELECT COUNT(*) ${from}`)
    .pluck()
    .get(match.count, ...params) as number;
  if (total === 0) return { total, hits: [] };
  const w = keywordWeights;
  const rank = `skills_fts.rank MATCH 'bm25(${[w.name, w.description, w.body, w.refs].map((x) => x.toFixed(1)).join(', ')})'`;
  // highlight() runs only for the rows returned, inside the ranked query (a query per hit re-ran the whole MATCH).
  const highlights = [0, 1, 2, 3].map(
    (c) => `highlight(skills_fts, ${c}, '${highlightStart}', '${highlightEnd}') AS h${c}`,
  );
  const columns = `skills_fts.rowid AS id, -skills_fts.rank AS score, ${highlights.join(', ')}`;
  const ranked = stmt(db, `SELECT ${columns} ${from} AND ${rank} ORDER BY skills_fts.rank LIMIT ?`).all(
    match.rank,
    ...params,
    offset + limit + exact.length,
  ) as Ranked[];
  // CAST: FTS5 ignores a rowid constraint bound as a JS number (a REAL) and returned every match, so in a large
  // library the exact-name hit was the best-ranked row, not the skill (issue 26).
  const one = stmt(db, `SELECT ${columns} ${from} AND ${rank} AND skills_fts.rowid = CAST(? AS INTEGER)`);
  const first = exact.flatMap(
    (id) => ranked.find((r) => r.id === id) ?? (one.all(match.rank, ...params, id) as Ranked[]),
  );
  const order = [...first, ...ranked.filter((r) => !first.some((f) => f.id === r.id))] as Ranked[];
  const summary = stmt(db, `SELECT ${summaryColumns(db)} FROM skills s WHERE s.id = ?`);
  const hits = order.slice(offset, offset + limit).map(({ id, score, h0, h1, h2, h3 }, i) => ({
    skill: summary.get(id) as SkillSummary,
    score,
    snippet: snippetOfColumns([h0, h1, h2, h3].map((c) => c ?? '')),
    rank: offset + i + 1,
  }));
  return { total, hits };
}

/**
 * Words that say what is wanted: without the English function words ("a", "the", "in") that nearly every skill holds
 * and that would make an any-word search match the whole library. All of them when nothing else is left.
 */
export function selectiveTerms(terms: string[]): string[] {
  const kept = terms.filter((t) => !stopwords.has(t));
  return kept.length > 0 ? kept : terms;
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
