// Builds the remote engines from the settings (settings.remote.embeddings / .rerank), in the shape of the engine
// registry's EngineFactory, so a host only adds its secrets.
import { CuratorError } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import type { CrossEncoder, Embedder } from '../ports';
import { createRemoteEmbedder, type RemoteEmbedderConfig } from './openai-embedder';
import { createRemoteCrossEncoder, type RemoteRerankConfig } from './rerank-cross-encoder';

export interface RemoteEngineOptions {
  /** Bearer tokens, kept out of the settings file by the host. */
  embeddingsApiKey?: string;
  rerankApiKey?: string;
  /** What the settings schema does not (yet) say: rerank dialect, score kind, prompt template, batch sizes. */
  embeddings?: Partial<RemoteEmbedderConfig>;
  rerank?: Partial<RemoteRerankConfig>;
  fetch?: typeof fetch;
}

function endpoint(s: { baseURL: string; model: string }, role: string): { baseURL: string; model: string } {
  if (!s.baseURL || !s.model) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Set the ${role} endpoint's base URL and model in the settings (remote.${role})`,
    );
  }
  return { baseURL: s.baseURL, model: s.model };
}

export function createRemoteEngineFactory(options: RemoteEngineOptions = {}): {
  embedder(settings: Settings): Promise<Embedder>;
  crossEncoder(settings: Settings): Promise<CrossEncoder>;
} {
  return {
    async embedder(settings) {
      const s = settings.remote.embeddings;
      return createRemoteEmbedder({
        ...endpoint(s, 'embeddings'),
        timeoutMs: s.timeoutMs,
        maxRetries: s.maxRetries,
        apiKey: options.embeddingsApiKey,
        fetch: options.fetch,
        ...options.embeddings,
      });
    },
    async crossEncoder(settings) {
      const s = settings.remote.rerank;
      return createRemoteCrossEncoder({
        ...endpoint(s, 'rerank'),
        timeoutMs: s.timeoutMs,
        maxRetries: s.maxRetries,
        apiKey: options.rerankApiKey,
        fetch: options.fetch,
        ...options.rerank,
      });
    },
  };
}
