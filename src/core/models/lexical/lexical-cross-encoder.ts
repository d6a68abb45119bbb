// The lexical cross-scorer: r(a, b) from BM25-style overlap of a's terms with b, IDF taken from the library, mapped to a
// log-odds-like scale (0 = even odds, positive = relevant) so the selection runs without any model.
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import type { Db } from '../../store/db';
import { termCounts } from './text-terms';

export const lexicalCrossEncoderId = 'lexical:bm25-overlap-v1';

/** Tuning of the mapping; changing one changes scores, so it changes the id above too. */
const k1 = 0.5; // term-frequency saturation: a second occurrence adds a little, not as much as the first
const lengthWeight = 0.75; // BM25 b: long documents need more occurrences for the same credit
const slope = 8; // log-odds per unit of covered IDF mass
const evenOddsCoverage = 0.25; // a document covering a quarter of the query's IDF mass is a coin flip

/** Document frequencies of the library, read from skills_fts through skills_fts_vocab. */
class LibraryStats {
  private docs = -1;
  private avgLength = 1;
  private readonly df = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Re-reads the counts when the library size changed since the last call. */
  refresh(): void {
    const docs = (this.db.prepare('SELECT count(*) FROM skills').pluck().get() as number) ?? 0;
    if (docs === this.docs) return;
    this.docs = docs;
    this.df.clear();
    // A fixed sample keeps the average deterministic for a given library and cheap for a large one.
    const sample = this.db
      .prepare('SELECT full_text FROM skills ORDER BY id LIMIT 200')
      .pluck()
      .all() as string[];
    let total = 0;
    for (const text of sample) for (const n of termCounts(text).values()) total += n;
    this.avgLength = sample.length > 0 ? Math.max(1, total / sample.length) : 1;
  }

  idf(term: string): number {
    let df = this.df.get(term);
    if (df === undefined) {
      const row = this.db.prepare('SELECT doc FROM skills_fts_vocab WHERE term = ?').pluck().get(term) as
        number | undefined;
      df = row ?? 0;
      this.df.set(term, df);
    }
    const n = Math.max(this.docs, df);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  get averageLength(): number {
    return this.avgLength;
  }
}

/** Coverage in [0, 1): the IDF-weighted share of a's terms that b contains, each saturating with its count in b. */
function coverage(
  stats: LibraryStats,
  query: Map<string, number>,
  doc: Map<string, number>,
  docLength: number,
): number {
  const norm = 1 - lengthWeight + (lengthWeight * docLength) / stats.averageLength;
  let mass = 0;
  let covered = 0;
  for (const term of query.keys()) {
    const w = stats.idf(term);
    mass += w;
    const tf = doc.get(term) ?? 0;
    if (tf > 0) covered += (w * tf) / (tf + k1 * norm);
  }
  return mass > 0 ? covered / mass : 0;
}

function lexicalScore(stats: LibraryStats, a: string, b: string): number {
  const doc = termCounts(b);
  let length = 0;
  for (const n of doc.values()) length += n;
  return slope * (coverage(stats, termCounts(a), doc, length) - evenOddsCoverage);
}

/** A CrossEncoder over the library's term statistics. The instruction is ignored: a bag of words cannot follow one. */
export function createLexicalCrossEncoder(db: Db): CrossEncoder {
  const stats = new LibraryStats(db);
  return {
    id: lexicalCrossEncoderId,
    engine: 'lexical',
    async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
      stats.refresh();
      const out: CrossScore[] = [];
      for (const [i, p] of pairs.entries()) {
        options.signal?.throwIfAborted();
        out.push({ r: lexicalScore(stats, p.query, p.document), truncated: false });
        if (options.onProgress && ((i + 1) % 256 === 0 || i + 1 === pairs.length)) {
          options.onProgress({ done: i + 1, total: pairs.length });
        }
      }
      return out;
    },
  };
}
