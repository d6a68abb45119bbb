// Near-duplicate skills: copies of one skill under other names, with a word or a line changed (forks, re-published
// catalogue entries). A large public library holds many of each; a recall that returned them all would fill its K
// places with one skill many times and push out every other one.
import type { TermBag } from './bm25';

/**
 * Weighted Jaccard (shared term counts over all term counts) of description + body at or above which two skills are
 * copies of one another. Measured on the 10k scale library (bench/scale/synth.ts): 99 % of its copies score >= 0.91
 * against their original, while no two distinct zjunlp skills score above 0.88 (two templated trainers).
 */
export const nearDuplicateSimilarity = 0.9;

/** Shared term counts over all term counts: 1 for equal bags, 0 for bags sharing no term. */
export function weightedJaccard(a: TermBag, b: TermBag): number {
  if (a.length === 0 && b.length === 0) return 1;
  let shared = 0;
  for (const [t, n] of a.counts) shared += Math.min(n, b.counts.get(t) ?? 0);
  return shared / (a.length + b.length - shared);
}

export function nearDuplicates(a: TermBag, b: TermBag): boolean {
  // The similarity is at most the ratio of the lengths: most pairs are told apart without reading a term.
  const [short, long] = a.length <= b.length ? [a.length, b.length] : [b.length, a.length];
  if (long > 0 && short / long < nearDuplicateSimilarity) return false;
  return weightedJaccard(a, b) >= nearDuplicateSimilarity;
}
