// The CrossEncoder port over a rerank server: Cohere-style POST /rerank (vLLM, Infinity, Jina), Text Embeddings
// Inference's /rerank, or vLLM's /score. Servers answer probabilities (a sigmoid over the model's yes-vs-no logit);
// r = logit(p) = ln(p / (1 - p)) turns them back into the log-odds METHOD.md scores with, so sigma(r) = p exactly.
import { CuratorError } from '../../../shared/errors';
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import { joinUrl, postJson, type HttpOptions } from './http-json';

export type RerankApi = 'rerank' | 'tei' | 'score';

export interface RemoteRerankConfig {
  /** e.g. http://127.0.0.1:8000 or http://127.0.0.1:8000/v1 */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Default 'rerank' (POST {baseURL}/rerank with {model, query, documents}). */
  api?: RerankApi;
  /** Override the path, e.g. '/v1/rerank'. */
  path?: string;
  /** What the server's numbers are: 'probability' (default; TEI, Infinity and vLLM's Qwen3 reranker) or 'logit'. */
  scores?: 'probability' | 'logit';
  /** 'qwen3' (default) sends Qwen3-Reranker's prompt around query and document, as vLLM documents; 'none' sends them bare. */
  template?: 'qwen3' | 'none';
  /** Documents per request; default 32. */
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
  sleep?: HttpOptions['sleep'];
}

const qwen3Prefix =
  '<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. ' +
  'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n';
const qwen3Suffix = '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';

// Probabilities of exactly 0 or 1 (rounded by the server) would give infinite log-odds.
const pMin = 1e-6;
export function logit(p: number): number {
  const q = Math.min(1 - pMin, Math.max(pMin, p));
  return Math.log(q / (1 - q));
}

/** Rough characters per token, to keep a document inside the token budget before the server cuts it silently. */
const charsPerToken = 3;

function parseScores(api: RerankApi, body: unknown, count: number, url: string): number[] {
  const list =
    api === 'tei'
      ? body
      : api === 'score'
        ? (body as { data?: unknown })?.data
        : (body as { results?: unknown })?.results;
  if (!Array.isArray(list))
    throw new CuratorError('MODEL_ERROR', `${url} answered without a list of scores`, { url });
  const out = new Array<number>(count).fill(NaN);
  for (const item of list as Record<string, unknown>[]) {
    const index = item?.index;
    const value = api === 'rerank' ? item?.relevance_score : item?.score;
    if (
      typeof index !== 'number' ||
      index < 0 ||
      index >= count ||
      typeof value !== 'number' ||
      !Number.isFinite(value)
    ) {
      throw new CuratorError('MODEL_ERROR', `${url} answered a malformed score entry`, { url, item });
    }
    out[index] = value;
  }
  if (out.some((v) => Number.isNaN(v)))
    throw new CuratorError('MODEL_ERROR', `${url} left some documents without a score`, { url });
  return out;
}

export function createRemoteCrossEncoder(config: RemoteRerankConfig): CrossEncoder {
  const api = config.api ?? 'rerank';
  const url = joinUrl(config.baseURL, config.path ?? (api === 'score' ? '/score' : '/rerank'));
  const batchSize = Math.max(1, config.batchSize ?? 32);
  const http: HttpOptions = {
    timeoutMs: config.timeoutMs ?? 60_000,
    maxRetries: config.maxRetries ?? 3,
    headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : undefined,
    fetch: config.fetch,
    sleep: config.sleep,
  };
  const qwen3 = (config.template ?? 'qwen3') === 'qwen3';

  async function scoreGroup(query: string, docs: string[], signal?: AbortSignal): Promise<number[]> {
    const q = query;
    const body =
      api === 'tei'
        ? { query: q, texts: docs, raw_scores: config.scores === 'logit' }
        : api === 'score'
          ? { model: config.model, text_1: q, text_2: docs }
          : { model: config.model, query: q, documents: docs, return_documents: false };
    const raw = parseScores(api, await postJson(url, body, { ...http, signal }), docs.length, url);
    if (config.scores === 'logit') return raw;
    if (raw.some((p) => p < 0 || p > 1)) {
      throw new CuratorError(
        'MODEL_ERROR',
        `${url} returned scores outside [0, 1]; set scores: 'logit' if the server sends raw logits`,
        { url },
      );
    }
    return raw.map(logit);
  }

  return {
    id: `remote:${config.model}`,
    engine: 'remote',
    async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
      const out = new Array<CrossScore>(pairs.length);
      // One request carries one query and many documents: group the pairs by query, keeping each pair's position.
      const groups = new Map<string, number[]>();
      pairs.forEach((p, i) => {
        const list = groups.get(p.query);
        if (list) list.push(i);
        else groups.set(p.query, [i]);
      });
      let done = 0;
      for (const [query, positions] of groups) {
        const q = qwen3 ? `${qwen3Prefix}<Instruct>: ${options.instruction}\n<Query>: ${query}\n` : query;
        const budget = options.maxTokens
          ? Math.max(0, options.maxTokens * charsPerToken - q.length - qwen3Suffix.length)
          : Infinity;
        for (let i = 0; i < positions.length; i += batchSize) {
          const chunk = positions.slice(i, i + batchSize);
          const docs = chunk.map((j) => pairs[j]!.document);
          const cut = docs.map((d) => d.length > budget);
          const sent = docs.map((d, k) => {
            const text = cut[k] ? d.slice(0, budget) : d;
            return qwen3 ? `<Document>: ${text}${qwen3Suffix}` : text;
          });
          const r = await scoreGroup(q, sent, options.signal);
          chunk.forEach((j, k) => (out[j] = { r: r[k]!, truncated: cut[k]! }));
          done += chunk.length;
          options.onProgress?.({ done, total: pairs.length });
        }
      }
      return out;
    },
  };
}
