// Qwen3-Embedding on ONNX, following the model's own recipe: query wrapping, truncation before the end-of-text token
// (so it survives), left padding, last-token pooling, optional dimension cut, then L2 normalisation.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../../shared/errors';
import type { EmbedOptions, Embedder } from '../ports';
import {
  addPaddingStats,
  batchStats,
  emptyPaddingStats,
  leftPad,
  planBatches,
  yieldToEventLoop,
  type PaddingStats,
} from './batches';
import {
  errorText,
  loadModel,
  type LoadedModel,
  type LoadedModelInfo,
  type OnnxModelOptions,
} from './load-model';

export const QWEN3_END_OF_TEXT = 151643;
export const DEFAULT_EMBED_INSTRUCTION =
  'Given a web search query, retrieve relevant passages that answer the query';

export interface OnnxEmbedderOptions extends OnnxModelOptions {
  /** Recorded with every vector; default: the folder's name. */
  id?: string;
  /** Tokens per text, the end-of-text token included. */
  maxTokens?: number;
  /** Keep only the first n dimensions (Matryoshka cut, 32..hidden) before normalising. */
  dimensions?: number;
  maxBatchSize?: number;
  maxBatchTokens?: number;
  /** A batch closes before padding would exceed this share of it (default 0.1). */
  maxPaddingShare?: number;
}

export interface OnnxEmbedder extends Embedder {
  /** Loads the model now (it loads on first use otherwise) and tells which device and file run it. */
  load(): Promise<LoadedModelInfo>;
  /** Padding over all calls so far. */
  readonly stats: PaddingStats;
  /** Releases the onnxruntime session; the next call loads the model again. */
  dispose(): Promise<void>;
}

export function queryText(text: string, instruction = DEFAULT_EMBED_INSTRUCTION): string {
  return `Instruct: ${instruction}\nQuery:${text}`;
}

export async function readHiddenSize(folder: string): Promise<number> {
  const file = path.join(folder, 'config.json');
  const config = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { hidden_size?: unknown };
  if (typeof config.hidden_size !== 'number') {
    throw new CuratorError('MODEL_ERROR', `${file} has no hidden_size`, { file });
  }
  return config.hidden_size;
}

function l2Normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

export async function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
  const hidden = await readHiddenSize(options.folder);
  const dim = options.dimensions ?? hidden;
  if (!Number.isInteger(dim) || dim < 1 || dim > hidden) {
    throw new CuratorError('INVALID_ARGUMENT', `dimensions must be 1..${hidden}, got ${dim}`);
  }
  const maxTokens = options.maxTokens ?? 1024;
  const limits = {
    maxBatchSize: options.maxBatchSize ?? 16,
    maxBatchTokens: options.maxBatchTokens ?? 8192,
    maxPaddingShare: options.maxPaddingShare,
  };
  const stats = emptyPaddingStats();
  let loading: Promise<LoadedModel> | undefined;
  const loaded = () => {
    loading ??= loadModel(options, 'base').catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  function tokenize(m: LoadedModel, text: string): number[] {
    const ids = m.tokenizer.encode(text, { add_special_tokens: false });
    return [...ids.slice(0, Math.max(0, maxTokens - 1)), QWEN3_END_OF_TEXT];
  }

  async function runBatch(m: LoadedModel, rows: number[][]): Promise<Float32Array[]> {
    const { ids, mask, width } = leftPad(rows, QWEN3_END_OF_TEXT);
    const shape = [rows.length, width];
    let output;
    try {
      const result = (await m.model({
        input_ids: new m.transformers.Tensor('int64', ids, shape),
        attention_mask: new m.transformers.Tensor('int64', mask, shape),
      })) as Record<string, InstanceType<typeof m.transformers.Tensor> | undefined>;
      output = result.last_hidden_state;
      if (!output)
        throw new Error(`the model returned ${Object.keys(result).join(', ')}, not last_hidden_state`);
    } catch (error) {
      throw new CuratorError('MODEL_ERROR', `Embedding failed: ${errorText(error)}`);
    }
    const data = (output.type === 'float16' ? output.to('float32') : output).data as Float32Array;
    const h = output.dims[2] ?? hidden;
    // Left padding puts every row's last real token (the end-of-text token) in the last column.
    return rows.map((_, r) =>
      l2Normalise(data.slice((r * width + width - 1) * h, (r * width + width - 1) * h + dim)),
    );
  }

  return {
    id: options.id ?? path.basename(path.resolve(options.folder)),
    engine: 'onnx',
    dim,
    stats,
    async load() {
      return (await loaded()).info;
    },
    async dispose() {
      const m = await loading?.catch(() => undefined);
      loading = undefined;
      await m?.model.dispose();
    },
    async embed(texts: string[], opts: EmbedOptions): Promise<Float32Array[]> {
      const m = await loaded();
      const inputs = opts.role === 'query' ? texts.map((t) => queryText(t, opts.instruction)) : texts;
      const rows = inputs.map((t) => tokenize(m, t));
      const out: Float32Array[] = new Array<Float32Array>(texts.length);
      let done = 0;
      for (const batch of planBatches(
        rows.map((r) => r.length),
        limits,
      )) {
        if (opts.signal?.aborted)
          throw new CuratorError('CANCELLED', 'Embedding cancelled', { done, total: texts.length });
        const batchRows = batch.map((i) => rows[i] ?? []);
        const vectors = await runBatch(m, batchRows);
        batch.forEach((i, k) => (out[i] = vectors[k] ?? new Float32Array(dim)));
        addPaddingStats(stats, batchStats(batchRows, Math.max(...batchRows.map((r) => r.length))));
        done += batch.length;
        opts.onProgress?.({ done, total: texts.length });
        await yieldToEventLoop();
      }
      return out;
    },
  };
}
