// `dense` ranks by the recall score; with no embedding model that recall is lexical, so every host says in the same
// words that the ranking counts shared words.
import type { SelectionTrace } from './trace';

export const denseByWordsNote = 'ranked by shared words: no embedding model is set up';

export function denseRanksByWords(trace: Pick<SelectionTrace, 'variant' | 'models'>): boolean {
  return trace.variant === 'dense' && /^(lexical|keyword)/.test(trace.models.recall ?? '');
}
