// What the fitted cross-scorer (lexical:bm25-fitted-v5) knows about a pair (query a, skill document b), beside the
// calibrated z-score: how much of a's content (IDF-weighted) b matches at all, in its name or description, and only
// inside its examples. Computed from the term bags the scorer already holds; the coefficients that turn them into
// log-odds are fitted on our labels (bench/fit-lexical-calibration.ts, calibration-v5.json).
import type { LibraryIndex } from './library-index';
import type { TermBag } from './bm25';

export const featureNames = ['z', 'cover', 'head', 'exampleOnly'] as const;
export type FeatureName = (typeof featureNames)[number];
export type Features = Record<FeatureName, number>;

export interface FeatureDocument {
  /** The whole document's judged bag. */
  bag: TermBag;
  /** Name + description, when the document is a skill document. */
  head: TermBag | null;
  /** Terms used outside example lists and example sections. */
  plain: ReadonlySet<string>;
}

/** Shares of a's distinct terms' IDF (the library's whole documents) that b matches, and where. */
export function pairFeatures(
  index: LibraryIndex,
  queryTerms: readonly string[],
  doc: FeatureDocument,
  z: number,
): Features {
  let total = 0;
  let cover = 0;
  let head = 0;
  let exampleOnly = 0;
  for (const t of queryTerms) {
    const w = index.documents.idf(t);
    total += w;
    if (!doc.bag.counts.has(t)) continue;
    cover += w;
    const inHead = doc.head?.counts.has(t) ?? false;
    if (inHead) head += w;
    else if (!doc.plain.has(t)) exampleOnly += w;
  }
  const share = (x: number): number => (total > 0 ? x / total : 0);
  return { z, cover: share(cover), head: share(head), exampleOnly: share(exampleOnly) };
}

export interface LinearModel {
  bias: number;
  weights: Record<FeatureName, number>;
}

export function logOdds(model: LinearModel, x: Features): number {
  let r = model.bias;
  for (const f of featureNames) r += model.weights[f] * x[f];
  return r;
}
