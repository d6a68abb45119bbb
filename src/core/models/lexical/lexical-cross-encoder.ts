// The lexical cross-scorer: r(a, b) without a model. BM25 of a's terms in b, standardised against the library's
// background for the same query a (how a scores over every skill), then mapped linearly to log-odds:
//   z = (bm25(a, b) - mean_a) / sd_a,   r = slope * (z - evenOddsZ).
// A document far above what the library typically scores for a gets high odds, an unrelated one clearly negative
// odds, and the length of a cancels out. Why and how it was tuned: docs/METHOD-notes.md ("The offline scorer").
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import type { Db } from '../../store/db';
import { bag, Memo, type Background, type TermBag } from './bm25';
import { fieldBags, merge, type Field, type LibraryIndex } from './library-index';
import { libraryIndex } from './library-index-cache';
import { subwordGrams, subwordStatistics } from './subword-evidence';
import { termCounts, terms } from './text-terms';

export const lexicalCrossEncoderId = 'lexical:bm25-calibrated-v6';
/** The scorer before sub-word evidence (v6 without it), kept for comparison (`npm run bench:offline -- --scorer v4`). */
export const lexicalCrossEncoderV4Id = 'lexical:bm25-calibrated-v4';
export type LexicalScorerVersion = 'v6' | 'v4';

/** The mapping; changing one changes scores, so it changes the id above too. */
export const calibration = {
  /** Log-odds per standard deviation above the library's mean for the query. */
  slope: 0.6,
  /**
   * A document this many standard deviations above the mean is a coin flip. 3.5 since v4 (was 3): labelled pairs
   * put even odds for relevance at z = 4.2 (docs/METHOD-notes.md, notes 24 and 31).
   */
  evenOddsZ: 3.5,
  /**
   * The spread never counts as less than this share of the query's ceiling: a query whose terms the library lacks
   * has no spread, and one rare term must not turn a single match into an unbounded z.
   */
  minSpread: 0.05,
  /**
   * Where a document sharing no term with the query sits, in standard deviations: every unrelated document gets the
   * same clearly negative r, whatever the query, and no matching document scores below it. Without this, which of
   * several unrelated states "wins" an alignment argmax would depend on how common the states' own words are.
   */
  noMatchZ: -1,
  /**
   * Documents that are not skill documents (`name | description | body`) and have at most this many terms (the
   * state sentences) are compared with the library's sentences; longer ones with its whole documents.
   */
  sentenceTerms: 64,
  /**
   * Since v6, sentences sharing no term are graded by their sub-word evidence g in [0, 1] (subword-evidence.ts),
   * z = noMatchZ - subwordGap * (1 - g / 2), within [noMatchZ - subwordGap, noMatchZ - subwordGap / 2]: below every
   * word match, so one shared word beats any amount of it, and only pairs with no evidence at all tie at the bottom.
   * Only the order of these scores is read (the alignment argmaxes), so the gap's size changes no answer.
   */
  subwordGap: 0.5,
};

export interface CalibratedScore {
  r: number;
  raw: number;
  z: number;
  background: 'skills' | 'documents' | 'summaries';
}

/** A document as the scorer holds it: its bag, and its fields when it is a skill document `name | description | body`. */
export interface ScoredDocument {
  bag: TermBag;
  fields: Record<Field, TermBag> | null;
}

export function scoredDocument(text: string, index?: LibraryIndex): ScoredDocument {
  const known = index?.documentFields(text);
  if (known) return { bag: merge([known.name, known.description, known.body]), fields: known };
  const first = text.indexOf(' | ');
  const second = first < 0 ? -1 : text.indexOf(' | ', first + 3);
  if (second >= 0) {
    const fields = fieldBags(
      text.slice(0, first),
      text.slice(first + 3, second),
      text.slice(second + 3),
      true,
    );
    return { bag: merge([fields.name, fields.description, fields.body]), fields };
  }
  return { bag: bag(termCounts(text)), fields: null };
}

/**
 * A query's terms: each distinct term once (skill documents), and in text order with repeats (sentences: a state
 * that names the mug twice is about the mug, as BM25's query-term frequency says).
 */
export interface QueryTerms {
  distinct: readonly string[];
  repeated: readonly string[];
}

export function queryTerms(text: string): QueryTerms {
  const repeated = terms(text);
  return { distinct: [...new Set(repeated)], repeated };
}

function rawAndBackground(
  index: LibraryIndex,
  queryTerms: QueryTerms,
  doc: ScoredDocument,
): { raw: number; bg: Background; background: CalibratedScore['background'] } {
  // Skill documents are scored as the recall ranks them (BM25F over name, description and body) against the same
  // statistic over the library; sentences (states) against the library's summaries; anything else as one bag.
  const query = queryTerms.distinct;
  if (doc.fields)
    return {
      raw: index.fieldedScore(query, doc.fields),
      bg: index.fieldedBackground(query),
      background: 'skills',
    };
  if (doc.bag.length <= calibration.sentenceTerms)
    return {
      raw: index.summaries.score(queryTerms.repeated, doc.bag),
      bg: index.summaries.background(queryTerms.repeated),
      background: 'summaries',
    };
  return {
    raw: index.documents.score(query, doc.bag),
    bg: index.documents.background(query),
    background: 'documents',
  };
}

// The n-grams of a query or document the scorer holds, made the first time a pair sharing no term needs them.
const gramsOf = new WeakMap<object, string[]>();
function grams(owner: object, terms: () => Iterable<string>): string[] {
  let g = gramsOf.get(owner);
  if (!g) gramsOf.set(owner, (g = subwordGrams(terms())));
  return g;
}

/** Sub-word evidence between a sentence query and a sentence document that share no term. */
export function subwordEvidence(index: LibraryIndex, query: QueryTerms, doc: ScoredDocument): number {
  return subwordStatistics(index.summaries.docs).overlap(
    grams(query, () => query.distinct),
    grams(doc, () => doc.bag.counts.keys()),
  );
}

/** r(a, b) with the parts it came from (for tests and the notes). */
export function calibratedScore(
  index: LibraryIndex,
  query: QueryTerms,
  doc: ScoredDocument,
  version: LexicalScorerVersion = 'v6',
): CalibratedScore {
  const { raw, bg, background } = rawAndBackground(index, query, doc);
  const spread = Math.max(bg.sd, calibration.minSpread * bg.ceiling);
  const z =
    raw > 0 && spread > 0
      ? Math.max(calibration.noMatchZ, (raw - bg.mean) / spread)
      : raw === 0 && background === 'summaries' && version === 'v6'
        ? calibration.noMatchZ - calibration.subwordGap * (1 - subwordEvidence(index, query, doc) / 2)
        : calibration.noMatchZ;
  return {
    r: calibration.slope * (z - calibration.evenOddsZ),
    raw,
    z,
    background,
  };
}

/** How long scoring holds the thread before it lets the event loop turn. */
const yieldEveryMs = 15;

/** A CrossEncoder over the library's term statistics. The instruction is ignored: a bag of words cannot follow one. */
export function createLexicalCrossEncoder(db: Db, version: LexicalScorerVersion = 'v6'): CrossEncoder {
  // Skill documents recur in every selection; their bags are kept (bounded) rather than re-tokenised.
  const docs = new Memo<ScoredDocument>(2048);
  const queries = new Memo<QueryTerms>(2048);
  let lastTurn = performance.now();
  return {
    id: version === 'v6' ? lexicalCrossEncoderId : lexicalCrossEncoderV4Id,
    engine: 'lexical',
    async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
      const index = libraryIndex(db);
      const out: CrossScore[] = [];
      for (const [i, p] of pairs.entries()) {
        // A host keeps answering (a cancel among them) while thousands of pairs are scored, in one call or in many.
        if (performance.now() - lastTurn > yieldEveryMs) {
          await nextTurn();
          lastTurn = performance.now();
        }
        options.signal?.throwIfAborted();
        const query = queries.get(p.query, () => queryTerms(p.query));
        const doc = docs.get(p.document, () => scoredDocument(p.document, index));
        out.push({ r: calibratedScore(index, query, doc, version).r, truncated: false });
        if (options.onProgress && ((i + 1) % 256 === 0 || i + 1 === pairs.length)) {
          options.onProgress({ done: i + 1, total: pairs.length });
        }
      }
      return out;
    },
  };
}
