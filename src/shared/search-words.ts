// Whether a Dense or Hybrid search really ran on vectors: without an embedding model the core ranks with its lexical
// recall ('lexical:bm25') instead, which the app and the CLI both say, with what to do.
import type { SearchResponse } from './api';

const lexicalRecall = 'lexical:bm25';

export function searchedLexicallyInstead(response: Pick<SearchResponse, 'mode' | 'engine'>): boolean {
  return response.mode !== 'keyword' && response.engine.includes(lexicalRecall);
}
