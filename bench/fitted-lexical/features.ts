// What a fitted lexical cross-scorer knows about a pair (query a, skill document b), beside v4's calibrated z-score:
// how much of a's content (IDF-weighted) b matches at all, in its name or description, and only inside its examples
// (example lists and sections headed "Example…"). The experiment of docs/METHOD-notes.md note 32: the coefficients
// that turn these into log-odds are fitted on our labels by bench/fit-lexical-calibration.ts.
import type { TermBag } from '../../src/core/models/lexical/bm25';
import type { LibraryIndex } from '../../src/core/models/lexical/library-index';
import { merge } from '../../src/core/models/lexical/library-index';
import type { ScoredDocument } from '../../src/core/models/lexical/lexical-cross-encoder';
import { terms } from '../../src/core/models/lexical/text-terms';

export const featureNames = ['z', 'cover', 'head', 'exampleOnly'] as const;
export type FeatureName = (typeof featureNames)[number];
export type Features = Record<FeatureName, number>;

// The cross-scorer's example lists (text-terms.ts), and markdown sections whose heading names examples.
const exampleLists =
  /\((?:e\.g\.|for example|for instance|such as)[^)]*\)|\b(?:e\.g\.|for example|for instance|such as)[^.;:()]*/giu;
const exampleSections = /^#{1,6}[^\n]*\bexamples?\b[^\n]*\n(?:(?!#{1,6}\s)[^\n]*(?:\n|$))*/gimu;

/** The terms a text uses outside its examples: what it says the skill does, not what it shows it applied to. */
export function plainTerms(text: string): Set<string> {
  return new Set(terms(text.replace(exampleSections, ' ').replace(exampleLists, ' ')));
}

export interface FeatureDocument {
  /** The whole document's judged bag. */
  bag: TermBag;
  /** Name + description. */
  head: TermBag;
  /** Terms used outside examples. */
  plain: ReadonlySet<string>;
}

/** The feature view of a skill document as the v4 scorer holds it; null for a document that is not a skill. */
export function featureDocument(text: string, doc: ScoredDocument): FeatureDocument | null {
  if (!doc.fields) return null;
  return { bag: doc.bag, head: merge([doc.fields.name, doc.fields.description]), plain: plainTerms(text) };
}

/**
 * Shares of a's distinct terms' IDF (over the library's whole documents) that b matches, and where; z from v4. Terms
 * no skill has are left out, as z leaves them out: a filler word the library lacks must not dilute the shares.
 */
export function pairFeatures(
  index: LibraryIndex,
  queryTerms: readonly string[],
  doc: FeatureDocument,
  z: number,
): Features {
  const n = index.documents.size;
  const unseen = Math.log(1 + (n + 0.5) / 0.5);
  let total = 0;
  let cover = 0;
  let head = 0;
  let exampleOnly = 0;
  for (const t of queryTerms) {
    const w = index.documents.idf(t);
    if (w >= unseen - 1e-12) continue;
    total += w;
    if (!doc.bag.counts.has(t)) continue;
    cover += w;
    if (doc.head.counts.has(t)) head += w;
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
