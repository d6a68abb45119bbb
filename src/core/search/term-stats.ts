// Library statistics the searches weigh words by: how many skills hold a word (from the full-text index, where it
// counts a doclist without reading any text) and how many skills there are. Kept per connection until the library
// changes, so the lexical scorer and keyword search can ask per word at no cost after the first time.
import type { Db } from '../store/db';
import { stmt } from '../store/statements';

interface Stats {
  writes: string;
  skills: number;
  df: Map<string, number>;
}

const cache = new WeakMap<Db, Stats>();
const maxTerms = 50_000;

/** Writes on this connection and commits by others: unchanged means no count can have changed. */
function writeCounter(db: Db): string {
  const changes = stmt(db, 'SELECT total_changes()').pluck().get() as number;
  return `${changes}:${String(db.pragma('data_version', { simple: true }))}`;
}

function stats(db: Db): Stats {
  const writes = writeCounter(db);
  let s = cache.get(db);
  if (!s || s.writes !== writes || s.df.size > maxTerms) {
    s = { writes, skills: stmt(db, 'SELECT COUNT(*) FROM skills').pluck().get() as number, df: new Map() };
    cache.set(db, s);
  }
  return s;
}

export function librarySize(db: Db): number {
  return stats(db).skills;
}

/** Skills whose indexed text holds the word (as the index stems it). */
export function documentFrequency(db: Db, term: string): number {
  const s = stats(db);
  let n = s.df.get(term);
  if (n === undefined) {
    n = stmt(db, 'SELECT COUNT(*) FROM skills_fts WHERE skills_fts MATCH ?')
      .pluck()
      .get(`"${term.replaceAll('"', '""')}"`) as number;
    s.df.set(term, n);
  }
  return n;
}
