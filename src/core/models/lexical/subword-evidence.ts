// Sub-word evidence between two sentences that share no term: how much of their character n-grams they share
// ("microwave" and "micro", "garbagecan" and "garbage"), each n-gram weighted by its IDF among the library's
// sentences. The calibrated scorer places this evidence strictly below the floor of a shared word, so it only orders
// states that no word tells apart (docs/METHOD-notes.md, "The offline preset: evidence below a shared word").
import type { TermBag } from './bm25';
import { negatedPrefix } from './text-terms';

/** The n-gram length and the weighting; changing one changes scores, so it changes the scorer's id too. */
export const subwordParams = {
  /** Characters per n-gram, counted on the stemmed term padded as `^term$`. */
  n: 4,
};

/**
 * The distinct n-grams of a term set, sorted: every sum over them runs in the same order whatever the order of the
 * words, so the same two texts always get the same score to the last bit. A negated term ("nonhot") keeps its n-grams
 * apart from the plain word's: "not hot" gives no evidence for "hot".
 */
export function subwordGrams(terms: Iterable<string>, n = subwordParams.n): string[] {
  const out = new Set<string>();
  for (const term of terms) for (const g of termGrams(term, n)) out.add(g);
  return [...out].sort();
}

function termGrams(term: string, n: number): string[] {
  const negated = term.length > negatedPrefix.length + 2 && term.startsWith(negatedPrefix);
  const padded = `^${negated ? term.slice(negatedPrefix.length) : term}$`;
  const mark = negated ? '!' : '';
  if (padded.length <= n) return [mark + padded];
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(mark + padded.slice(i, i + n));
  return out;
}

/** Document frequencies of n-grams over a collection of sentences (their distinct terms). */
export class SubwordStatistics {
  private readonly df = new Map<string, number>();
  readonly size: number;

  constructor(sentences: readonly TermBag[]) {
    this.size = sentences.length;
    // Sentences repeat their vocabulary: each term is cut into n-grams once.
    const byTerm = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const s of sentences) {
      seen.clear();
      for (const t of s.counts.keys()) {
        let grams = byTerm.get(t);
        if (!grams) byTerm.set(t, (grams = termGrams(t, subwordParams.n)));
        for (const g of grams) seen.add(g);
      }
      for (const g of seen) this.df.set(g, (this.df.get(g) ?? 0) + 1);
    }
  }

  /** The same IDF as the terms' (Robertson–Spärck Jones, kept positive); an n-gram no sentence has weighs most. */
  idf(gram: string): number {
    const df = this.df.get(gram) ?? 0;
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /**
   * IDF-weighted Dice overlap of two n-gram sets, in [0, 1]: 2 · (weight shared) / (weight of a + weight of b).
   * Symmetric, and 0 when nothing is shared.
   */
  overlap(a: readonly string[], b: readonly string[]): number {
    const inB = new Set(b);
    let shared = 0;
    let total = 0;
    for (const g of a) {
      const w = this.idf(g);
      total += w;
      if (inB.has(g)) shared += w;
    }
    if (shared === 0) return 0;
    for (const g of b) total += this.idf(g);
    return total > 0 ? (2 * shared) / total : 0;
  }
}

// One table per sentence collection: a library index made again (other states) gets its own.
const bySentences = new WeakMap<readonly TermBag[], SubwordStatistics>();

/** The n-gram statistics of a sentence collection, built on first use. */
export function subwordStatistics(sentences: readonly TermBag[]): SubwordStatistics {
  let s = bySentences.get(sentences);
  if (!s) bySentences.set(sentences, (s = new SubwordStatistics(sentences)));
  return s;
}
