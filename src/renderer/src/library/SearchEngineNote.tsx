// What a Dense or Hybrid search really ran on: without an embedding model the core ranks with its lexical engine
// ('lexical:bm25'), which a newcomer who picked "Dense" would otherwise not notice; and the core's own notice (a
// vector index out of date) when it sends one.
import type { SearchResponse } from '../../../shared/api';
import { searchedLexicallyInstead } from '../../../shared/search-words';
import { localModelsPlace } from '../../../shared/settings-places';

export function SearchEngineNote({ response }: { response: SearchResponse }) {
  const noEmbedder = searchedLexicallyInstead(response);
  if (!noEmbedder && !response.notice) return null;
  return (
    <p className="warn-text small" data-testid="search-engine-note">
      {noEmbedder && (
        <>
          {response.mode === 'dense' ? 'Dense' : 'Hybrid'} search needs an embedding model and none is set up,
          so these results come from the built-in lexical ranking. Add one in{' '}
          <a href="#/settings">{localModelsPlace}</a> and build the index.{' '}
        </>
      )}
      {response.notice}
    </p>
  );
}
