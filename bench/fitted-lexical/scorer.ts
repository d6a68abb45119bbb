// The fitted lexical cross-scorer of note 32 (lexical:bm25-fitted-v5 in the record), for the bench only: task
// relevance and stage fit by the fitted linear log-odds maps over features.ts, everything else (alignment, documents
// that are not skills) by the product's v4 scorer. Not in the product: on our training parts it did not beat v4.
import { libraryIndex } from '../../src/core/models/lexical/library-index-cache';
import { Memo } from '../../src/core/models/lexical/bm25';
import {
  calibratedScore,
  createLexicalCrossEncoder,
  queryTerms,
  scoredDocument,
  type QueryTerms,
} from '../../src/core/models/lexical/lexical-cross-encoder';
import type { CrossEncoder, CrossScore } from '../../src/core/models/ports';
import { instructions } from '../../src/core/select/instructions';
import type { Db } from '../../src/core/store/db';
import { featureDocument, logOdds, pairFeatures, type FeatureDocument, type LinearModel } from './features';
import type { ScoredDocument } from '../../src/core/models/lexical/lexical-cross-encoder';

export interface FittedCalibration {
  id: string;
  models: { relevance: LinearModel; 'stage-fit': LinearModel };
}

export function createFittedLexicalCrossEncoder(db: Db, calibration: FittedCalibration): CrossEncoder {
  const v4 = createLexicalCrossEncoder(db);
  const docs = new Memo<{ scored: ScoredDocument; features: FeatureDocument | null }>(2048);
  const queries = new Memo<QueryTerms>(2048);
  return {
    id: calibration.id,
    engine: 'lexical',
    async score(pairs, options): Promise<CrossScore[]> {
      const use =
        options.instruction === instructions.relevance.text
          ? 'relevance'
          : options.instruction === instructions['stage-fit'].text
            ? 'stage-fit'
            : null;
      if (!use) return v4.score(pairs, options);
      const index = libraryIndex(db);
      return pairs.map((p) => {
        options.signal?.throwIfAborted();
        const query = queries.get(p.query, () => queryTerms(p.query));
        const doc = docs.get(p.document, () => {
          const scored = scoredDocument(p.document, index);
          return { scored, features: featureDocument(p.document, scored) };
        });
        const score = calibratedScore(index, query, doc.scored);
        const r = doc.features
          ? logOdds(calibration.models[use], pairFeatures(index, query.distinct, doc.features, score.z))
          : score.r;
        return { r, truncated: false };
      });
    },
  };
}
