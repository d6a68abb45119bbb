// The lexical cross-scorer: r(a, b) without a model. BM25 of a's terms in b, standardised against the library's
// background for the same query a (how a scores over every skill), then mapped linearly to log-odds:
//   z = (bm25(a, b) - mean_a) / sd_a,   r = slope * (z - evenOddsZ).
// A document far above what the library typically scores for a gets high odds, an unrelated one clearly negative
// odds, and the length of a cancels out. Why and how it was tuned: docs/METHOD-notes.md ("The offline scorer").
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import type { Db } from '../../store/db';
import { bag, Memo, type TermBag } from './bm25';
import { libraryIndex, type LibraryIndex } from './library-index';
import { termCounts } from './text-terms';

export const lexicalCrossEncoderId = 'lexical:bm25-calibrated-v2';

/** The mapping; changing one changes scores, so it changes the id above too. */
export const calibration = {
  /** Log-odds per standard deviation above the library's mean for the query. */
  slope: 1,
  /** A document this many standard deviations above the mean is a coin flip. */
  evenOddsZ: 3,
  /**
   * The spread never counts as less than this share of the query's ceiling: a query whose terms the library lacks
   * has no spread, and one rare term must not turn a single match into an unbounded z.
   */
  minSpread: 0.05,
  /** Documents of at most this many terms (state sentences) are compared with the library's summaries. */
  sentenceTerms: 64,
};

export interface CalibratedScore {
  r: number;
  raw: number;
  z: number;
  background: 'documents' | 'summaries';
}

/** r(a, b) with the parts it came from (for tests and the notes); a and b are plain texts. */
export function calibratedScore(
  index: LibraryIndex,
  query: readonly string[],
  doc: TermBag,
): CalibratedScore {
  const sentence = doc.length <= calibration.sentenceTerms;
  const collection = sentence ? index.summaries : index.documents;
  const raw = collection.score(query, doc);
  const bg = collection.background(query);
  const spread = Math.max(bg.sd, calibration.minSpread * bg.ceiling);
  const z = spread > 0 ? (raw - bg.mean) / spread : 0;
  return {
    r: calibration.slope * (z - calibration.evenOddsZ),
    raw,
    z,
    background: sentence ? 'summaries' : 'documents',
  };
}

/** A CrossEncoder over the library's term statistics. The instruction is ignored: a bag of words cannot follow one. */
export function createLexicalCrossEncoder(db: Db): CrossEncoder {
  // Skill documents recur in every selection; their bags are kept (bounded) rather than re-tokenised.
  const bags = new Memo<TermBag>(2048);
  const queries = new Memo<string[]>(2048);
  return {
    id: lexicalCrossEncoderId,
    engine: 'lexical',
    async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
      const index = libraryIndex(db);
      const out: CrossScore[] = [];
      for (const [i, p] of pairs.entries()) {
        options.signal?.throwIfAborted();
        const query = queries.get(p.query, () => [...termCounts(p.query).keys()]);
        const doc = bags.get(p.document, () => bag(termCounts(p.document)));
        out.push({ r: calibratedScore(index, query, doc).r, truncated: false });
        if (options.onProgress && ((i + 1) % 256 === 0 || i + 1 === pairs.length)) {
          options.onProgress({ done: i + 1, total: pairs.length });
        }
      }
      return out;
    },
  };
}
