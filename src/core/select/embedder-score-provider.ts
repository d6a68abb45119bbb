// The fast preset's scorer: r(a, b) = scale * (cos(E(a as query), E(b as document)) - center). The query is wrapped
// in the embedder's instruction for the use; documents are skill-side texts (c_k, p_k, e_k) read from the index where
// it holds them, so a selection embeds only its task side. Each text is embedded at most once per provider.
import type { EmbedderCalibration, ScorerRef } from '../../shared/presets';
import { CuratorError } from '../../shared/errors';
import type { Embedder, ScorePair } from '../models/ports';
import { calibratedScore } from './calibration';
import { approxTokens } from './documents';
import { embedderInstructions, type Instruction } from './instructions';
import type { ScoreProvider, ScoreValue } from './scores';
import type { ThroughputMeter } from './throughput';
import type { ScoreUse } from './trace-types';

export interface EmbedderProviderOptions {
  calibration: EmbedderCalibration;
  /** Stored skill-side vectors by text (search/skill-side-index); texts it lacks are embedded here. */
  skillSide?: (texts: readonly string[]) => Map<string, Float32Array>;
  signal?: AbortSignal;
  meter?: ThroughputMeter;
}

export interface EmbedderScoreProvider extends ScoreProvider {
  /** Skill-side texts this provider had to embed because the index lacked them. */
  readonly documentsEmbedded: number;
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length)
    throw new CuratorError('MODEL_ERROR', `Vectors of ${a.length} and ${b.length} values cannot be compared`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export function embedderScoreProvider(
  embedder: Embedder,
  options: EmbedderProviderOptions,
): EmbedderScoreProvider {
  const queries = new Map<string, Float32Array>();
  const documents = new Map<string, Float32Array>();
  let documentsEmbedded = 0;

  const embed = async (texts: string[], role: 'query' | 'document', instruction?: string) => {
    const started = performance.now();
    const vectors = await embedder.embed(texts, { role, instruction, signal: options.signal });
    if (vectors.length !== texts.length)
      throw new CuratorError(
        'MODEL_ERROR',
        `Embedder returned ${vectors.length} vectors for ${texts.length} texts`,
      );
    const tokens = texts.reduce((sum, t) => sum + approxTokens((instruction ?? '') + t) + 2, 0);
    options.meter?.add('embedder', embedder.id, tokens, performance.now() - started);
    return vectors;
  };

  const provider: EmbedderScoreProvider = {
    id: embedder.id,
    get documentsEmbedded() {
      return documentsEmbedded;
    },
    instructionFor: (use: ScoreUse): Instruction => embedderInstructions[use],
    scorerFor: (use: ScoreUse): ScorerRef => ({
      tier: 'embedder',
      engine: embedder.id,
      instruction: embedderInstructions[use].version,
      calibration: options.calibration,
    }),
    async score(
      instruction: Instruction,
      pairs: ScorePair[],
      onPairs?: (done: number) => void,
    ): Promise<ScoreValue[]> {
      const qKey = (q: string) => `${instruction.version}\u0001${q}`;
      const newQueries = [...new Set(pairs.map((p) => p.query))].filter((q) => !queries.has(qKey(q)));
      if (newQueries.length > 0) {
        const vs = await embed(newQueries, 'query', instruction.text);
        newQueries.forEach((q, i) => queries.set(qKey(q), vs[i]!));
      }
      let newDocs = [...new Set(pairs.map((p) => p.document))].filter((d) => !documents.has(d));
      if (newDocs.length > 0 && options.skillSide) {
        for (const [text, v] of options.skillSide(newDocs)) documents.set(text, v);
        newDocs = newDocs.filter((d) => !documents.has(d));
      }
      if (newDocs.length > 0) {
        const vs = await embed(newDocs, 'document');
        newDocs.forEach((d, i) => documents.set(d, vs[i]!));
        documentsEmbedded += newDocs.length;
      }
      const out = pairs.map((p) =>
        calibratedScore(dot(queries.get(qKey(p.query))!, documents.get(p.document)!), options.calibration),
      );
      onPairs?.(pairs.length);
      return out;
    },
  };
  return provider;
}
