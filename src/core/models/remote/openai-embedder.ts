// The Embedder port over an OpenAI-compatible POST /v1/embeddings (vLLM, Text Embeddings Inference, Infinity, OpenAI),
// through the `openai` client, which batches nothing itself but retries 429/5xx honouring Retry-After. The client
// loads when an embedder is created (only its error classes, a small module, load with this file): the host starts
// without it.
import type OpenAI from 'openai';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai/core/error';
import { CuratorError } from '../../../shared/errors';
import type { EmbedOptions, Embedder } from '../ports';

export interface RemoteEmbedderConfig {
  /** e.g. http://127.0.0.1:8000/v1 */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Vector length. When set it is also sent as `dimensions` (Qwen3 embeddings can be cut); when not, one probe finds it. */
  dimensions?: number;
  /** 'qwen3' (default) wraps queries as `Instruct: ...\nQuery:...`, which servers do not do; 'none' sends them bare. */
  template?: 'qwen3' | 'none';
  /** Texts per request; default 64. */
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
}

function toCuratorError(error: unknown, url: string, timeoutMs: number): CuratorError {
  if (error instanceof CuratorError) return error;
  if (error instanceof APIUserAbortError) return new CuratorError('CANCELLED', 'Cancelled');
  if (error instanceof APIConnectionTimeoutError)
    return new CuratorError('TIMEOUT', `${url} did not answer within ${timeoutMs} ms`, { url, timeoutMs });
  if (error instanceof APIConnectionError)
    return new CuratorError('ENDPOINT_UNREACHABLE', `Cannot reach ${url}: ${error.message}`, { url });
  if (error instanceof APIError) {
    const details = { url, status: error.status };
    if (error.status === 401 || error.status === 403)
      return new CuratorError(
        'UNAUTHORIZED',
        `${url} refused the credentials (HTTP ${error.status})`,
        details,
      );
    return new CuratorError(
      'MODEL_ERROR',
      `${url} answered HTTP ${error.status ?? '?'}: ${error.message}`,
      details,
    );
  }
  if (error instanceof SyntaxError)
    return new CuratorError('MODEL_ERROR', `${url} answered with malformed JSON`, { url });
  return new CuratorError(
    'MODEL_ERROR',
    `Embedding request to ${url} failed: ${(error as Error)?.message ?? String(error)}`,
    { url },
  );
}

function unit(values: unknown, url: string): Float32Array {
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.some((x) => typeof x !== 'number' || !Number.isFinite(x))
  ) {
    throw new CuratorError('MODEL_ERROR', `${url} answered an embedding that is not a list of numbers`, {
      url,
    });
  }
  const v = Float32Array.from(values as number[]);
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) throw new CuratorError('MODEL_ERROR', `${url} answered a zero vector`, { url });
  const s = 1 / Math.sqrt(n);
  return v.map((x) => x * s);
}

/** Connects, and when `dimensions` is not given, embeds one probe text to learn the vector length. */
export async function createRemoteEmbedder(config: RemoteEmbedderConfig): Promise<Embedder> {
  const timeoutMs = config.timeoutMs ?? 60_000;
  const { default: OpenAIClient } = await import('openai');
  const client = new OpenAIClient({
    baseURL: config.baseURL,
    apiKey: config.apiKey || 'unused',
    timeout: timeoutMs,
    maxRetries: config.maxRetries ?? 3,
    fetch: config.fetch,
  });
  const url = `${config.baseURL.replace(/\/+$/, '')}/embeddings`;
  const batchSize = Math.max(1, config.batchSize ?? 64);
  const qwen3 = (config.template ?? 'qwen3') === 'qwen3';

  async function request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    let res: OpenAI.CreateEmbeddingResponse;
    try {
      res = await client.embeddings.create(
        {
          model: config.model,
          input,
          encoding_format: 'float',
          ...(config.dimensions ? { dimensions: config.dimensions } : {}),
        },
        { signal },
      );
    } catch (error) {
      throw toCuratorError(error, url, timeoutMs);
    }
    const data = (res as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new CuratorError(
        'MODEL_ERROR',
        `${url} answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${input.length} texts`,
        { url },
      );
    }
    const out = new Array<Float32Array>(input.length);
    for (const [k, item] of (data as { index?: number; embedding?: unknown }[]).entries()) {
      const index = typeof item?.index === 'number' ? item.index : k;
      if (index < 0 || index >= input.length || out[index])
        throw new CuratorError('MODEL_ERROR', `${url} answered a bad embedding index`, { url });
      out[index] = unit(item?.embedding, url);
    }
    return out;
  }

  const dim = config.dimensions ?? (await request(['dimension probe']))[0]!.length;
  return {
    id: config.dimensions ? `remote:${config.model}:${config.dimensions}` : `remote:${config.model}`,
    engine: 'remote',
    dim,
    async embed(texts: string[], options: EmbedOptions): Promise<Float32Array[]> {
      const input =
        options.role === 'query' && qwen3 && options.instruction
          ? texts.map((t) => `Instruct: ${options.instruction}\nQuery:${t}`)
          : texts;
      const out: Float32Array[] = [];
      for (let i = 0; i < input.length; i += batchSize) {
        if (options.signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled');
        const vectors = await request(input.slice(i, i + batchSize), options.signal);
        for (const v of vectors) {
          if (v.length !== dim)
            throw new CuratorError('MODEL_ERROR', `${url} answered ${v.length} dimensions, expected ${dim}`, {
              url,
            });
          out.push(v);
        }
        options.onProgress?.({ done: out.length, total: input.length });
      }
      return out;
    },
  };
}
