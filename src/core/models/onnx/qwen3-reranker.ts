// Qwen3-Reranker on ONNX: the model's chat template byte for byte, only the document cut to the token budget,
// left padding, and r = logit("yes") - logit("no") read at the last position with the full-vocabulary logits bounded.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../../shared/errors';
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import {
  addPaddingStats,
  batchStats,
  emptyPaddingStats,
  leftPad,
  planBatches,
  yieldToEventLoop,
  type PaddingStats,
} from './batches';
import { QWEN3_END_OF_TEXT } from './qwen3-embedder';
import { QWEN3_NO, QWEN3_YES, rerankerPromptIds } from './qwen3-reranker-template';
import {
  errorText,
  loadModel,
  type LoadedModel,
  type LoadedModelInfo,
  type OnnxModelOptions,
} from './load-model';

export interface OnnxCrossEncoderOptions extends OnnxModelOptions {
  id?: string;
  /** Default token budget of a whole prompt when a call gives none. */
  maxTokens?: number;
  maxBatchSize?: number;
  /** Padded tokens per batch when the graph returns logits for the last position only. */
  maxBatchTokens?: number;
  /** A batch closes before padding would exceed this share of it (default 0.1). */
  maxPaddingShare?: number;
  /** Bytes for one batch's logits when the graph returns them for every position (no num_logits_to_keep). */
  maxLogitsBytes?: number;
}

export interface OnnxCrossEncoder extends CrossEncoder {
  load(): Promise<LoadedModelInfo>;
  readonly stats: PaddingStats;
  dispose(): Promise<void>;
}

async function readVocabSize(folder: string): Promise<number> {
  const config = JSON.parse(await readFile(path.join(folder, 'config.json'), 'utf8').catch(() => '{}')) as {
    vocab_size?: unknown;
  };
  return typeof config.vocab_size === 'number' ? config.vocab_size : 151_669;
}

export async function createOnnxCrossEncoder(options: OnnxCrossEncoderOptions): Promise<OnnxCrossEncoder> {
  const vocab = await readVocabSize(options.folder);
  const stats = emptyPaddingStats();
  let loading: Promise<LoadedModel> | undefined;
  const loaded = () => {
    loading ??= loadModel(options, 'lm').catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  async function runBatch(m: LoadedModel, rows: number[][]): Promise<number[]> {
    const { ids, mask, width } = leftPad(rows, QWEN3_END_OF_TEXT);
    const shape = [rows.length, width];
    const T = m.transformers;
    const keepsLast = m.info.inputNames.includes('num_logits_to_keep');
    try {
      const result = (await m.model({
        input_ids: new T.Tensor('int64', ids, shape),
        attention_mask: new T.Tensor('int64', mask, shape),
        ...(keepsLast ? { num_logits_to_keep: new T.Tensor('int64', [1n], []) } : {}),
      })) as Record<string, InstanceType<typeof T.Tensor> | undefined>;
      const logits = result.logits;
      if (!logits) throw new Error(`the model returned ${Object.keys(result).join(', ')}, not logits`);
      const positions = logits.dims[1] ?? 0;
      const v = logits.dims[2] ?? vocab;
      // Left padding: the last position is every row's last real token.
      const last = logits.slice(null, [positions - 1, positions], null).to('float32');
      const data = last.data as Float32Array;
      return rows.map((_, r) => (data[r * v + QWEN3_YES] ?? NaN) - (data[r * v + QWEN3_NO] ?? NaN));
    } catch (error) {
      throw new CuratorError('MODEL_ERROR', `Scoring failed: ${errorText(error)}`);
    }
  }

  return {
    id: options.id ?? path.basename(path.resolve(options.folder)),
    engine: 'onnx',
    stats,
    async load() {
      return (await loaded()).info;
    },
    async dispose() {
      const m = await loading?.catch(() => undefined);
      loading = undefined;
      await m?.model.dispose();
    },
    async score(pairs: ScorePair[], opts: CrossScoreOptions): Promise<CrossScore[]> {
      const m = await loaded();
      const encode = (text: string) => m.tokenizer.encode(text, { add_special_tokens: false });
      const budget = opts.maxTokens ?? options.maxTokens ?? 1024;
      const prompts = rerankerPromptIds(encode, opts.instruction, pairs, budget);
      const keepsLast = m.info.inputNames.includes('num_logits_to_keep');
      const logitsTokens = Math.max(1, Math.floor((options.maxLogitsBytes ?? 2 ** 30) / (vocab * 4)));
      const limits = {
        maxBatchSize: options.maxBatchSize ?? 8,
        maxPaddingShare: options.maxPaddingShare,
        maxBatchTokens: keepsLast
          ? (options.maxBatchTokens ?? 4096)
          : Math.min(options.maxBatchTokens ?? 4096, logitsTokens),
      };
      const out = new Array<CrossScore>(pairs.length);
      let done = 0;
      for (const batch of planBatches(
        prompts.map((p) => p.ids.length),
        limits,
      )) {
        if (opts.signal?.aborted)
          throw new CuratorError('CANCELLED', 'Scoring cancelled', { done, total: pairs.length });
        const rows = batch.map((i) => prompts[i]?.ids ?? []);
        const scores = await runBatch(m, rows);
        batch.forEach(
          (i, k) => (out[i] = { r: scores[k] ?? NaN, truncated: prompts[i]?.truncated ?? false }),
        );
        addPaddingStats(stats, batchStats(rows, Math.max(...rows.map((r) => r.length))));
        done += batch.length;
        opts.onProgress?.({ done, total: pairs.length });
        await yieldToEventLoop();
      }
      return out;
    },
  };
}
