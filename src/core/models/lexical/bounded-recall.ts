// The lexical recall of a large library without an index of it in memory: the candidates are the skills FTS5 ranks
// first for the query's words (skills_fts, with the recall's field weights), and the recall's own BM25F ranks them with
// the library's persisted statistics (library-stats.ts), near-duplicates and feedback as in LibraryIndex.rankDistinct.
// Exact when the candidates hold every skill sharing a term with the query; in a large library the skills FTS5 ranks
// below `candidateDepth` are not read.
import type { Db } from '../../store/db';
import type { Memo, TermBag } from './bm25';
import { fieldBags, LibraryIndex, recallParams, type Field, type Row } from './library-index';
import type { PersistedStatistics } from './library-stats';
import { terms, words } from './text-terms';

/** Skills read and ranked per query: deep enough for K distinct skills when each has many near-copies. */
export const candidateDepth = { skills: 3000 };

/** The query's words as an FTS5 OR query (quoted, so no word is read as an operator); null when none is a term. */
export function ftsQuery(query: string): string | null {
  const kept = [...new Set(words(query))].filter((w) => terms(w).length > 0);
  return kept.length === 0 ? null : kept.map((w) => `"${w}"`).join(' OR ');
}

export function ftsCandidates(db: Db, query: string, depth: number): number[] {
  const match = ftsQuery(query);
  if (match === null) return [];
  const { name, description, body } = recallParams.fields;
  return db
    .prepare(
      `SELECT rowid FROM skills_fts WHERE skills_fts MATCH ?
       ORDER BY bm25(skills_fts, ${name.weight}, ${description.weight}, ${body.weight}, 0) LIMIT ?`,
    )
    .pluck()
    .all(match, depth) as number[];
}

/**
 * The candidates' rows. A body (stored compressed, and long) is read only for skills whose bags are not kept yet
 * (`bagged`); the others get '' and their kept bags.
 */
function loadRows(db: Db, ids: readonly number[], bagged: (id: number) => boolean = () => false): Row[] {
  const get = db.prepare('SELECT id, name, description, body FROM skills WHERE id = ?');
  const head = db.prepare("SELECT id, name, description, '' AS body FROM skills WHERE id = ?");
  const rows: Row[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const row = (bagged(id) ? head : get).get(id) as Row | undefined;
    if (row) rows.push(row);
  }
  return rows;
}

function loadBody(db: Db, id: number): string {
  return (db.prepare('SELECT body FROM skills WHERE id = ?').pluck().get(id) as string | undefined) ?? '';
}

export function boundedRank(
  db: Db,
  stats: PersistedStatistics,
  query: string,
  k: number,
  allowed?: ReadonlySet<number>,
  bags?: Memo<Record<Field, TermBag>>,
): { skillId: number; score: number }[] {
  // A filter that leaves few enough skills is ranked whole, like the in-memory recall.
  const ids =
    allowed && allowed.size <= candidateDepth.skills
      ? [...allowed]
      : ftsCandidates(db, query, candidateDepth.skills).filter((id) => !allowed || allowed.has(id));
  // A row read without its body (its bags were kept) whose bags were let go since reads the body then.
  const headOnly = new Set<number>();
  const bagsOf =
    bags &&
    ((r: Row) =>
      bags.get(String(r.id), () =>
        fieldBags(r.name, r.description, headOnly.has(r.id) ? loadBody(db, r.id) : r.body),
      ));
  const bagged = (id: number): boolean => {
    const kept = bags?.has(String(id)) ?? false;
    if (kept) headOnly.add(id);
    return kept;
  };
  const index = (of: readonly number[]) =>
    new LibraryIndex(loadRows(db, of, bagged), [], stats, { recallOnly: true, bagsOf });
  // The feedback ranks the last third of K by the query widened with the best skill's words: their skills are
  // candidates too (at a third of the depth), or the feedback could only reorder what the query found.
  const widened = allowed ? [] : index(ids).feedbackTerms(query, k);
  const more =
    widened.length > 0 ? ftsCandidates(db, widened.join(' '), Math.ceil(candidateDepth.skills / 3)) : [];
  return index([...new Set([...ids, ...more])]).rankDistinct(query, k);
}
