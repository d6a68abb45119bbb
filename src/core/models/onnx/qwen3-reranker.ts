// Qwen3-Reranker on ONNX: the model's chat template byte for byte, only the document cut to the token budget,
// left padding, and r = logit("yes") - logit("no") read at the last position. By default a graph derived from the
// export computes just those two logits (./derive-yesno); the full-vocabulary graph remains as `head: 'full'` and as
// the fall back for exports whose head cannot be cut down, with its logits bounded per batch.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../../shared/errors';
import type { CrossEncoder, CrossScore, CrossScoreOptions, ScorePair } from '../ports';
import {
  addPaddingStats,
  batchStats,
  cachedTokenBound,
  emptyPaddingStats,
  leftPad,
  longestFirst,
  planBatches,
  yieldToEventLoop,
  type PaddingStats,
} from './batches';
import { QWEN3_END_OF_TEXT } from './qwen3-embedder';
import { QWEN3_NO, QWEN3_YES, rerankerPromptIds, type PromptIds } from './qwen3-reranker-template';
import {
  errorText,
  loadModel,
  type LoadedModel,
  type LoadedModelInfo,
  type OnnxModelOptions,
  type PreTrainedTokenizer,
} from './load-model';
import { createHeadMemo } from './head-memo';
import { cacheBytesPerToken, forBatches, type PrefixCache } from './prefix-cache';
import { loadYesNoModel } from './yesno-session';

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
  /** `yes-no` (default): the derived two-logit graph, made beside the export on first use; `full`: the export as is. */
  head?: 'yes-no' | 'full';
  /**
   * Default true: when the export has a key/value cache, a query's prompt prefix runs once and feeds every document
   * (./prefix-cache); r agree with the whole-prompt run to float rounding. False runs whole prompts.
   */
  prefixCache?: boolean;
  /** Bytes of a cached head that one batch's rows may hold together (default REPEATED_CACHE_BYTES; ./batches). */
  maxRepeatedCacheBytes?: number;
  /** Run each group's batches longest first (default true; false runs them as planned, shortest first, to measure). */
  longestFirst?: boolean;
  /** onnxruntime's CPU memory arena for the yes/no graph (default true). */
  cpuMemArena?: boolean;
  /** onnxruntime's memory patterns for the yes/no graph (default true). */
  memPattern?: boolean;
  /**
   * Bytes of prompt-head caches kept between calls of one instruction (default 0: none; REUSED_HEAD_BYTES keeps a
   * 3-stage task's heads): a round of the same use reuses its queries' heads instead of running them again
   * (./head-memo). Off by default: on a K = 30 selection it saved ~6 % CPU but raised peak RSS by ~50 MB, past the
   * 2.5 GB target (docs/METHOD-notes.md, 45-48).
   */
  reusedHeadBytes?: number;
  /**
   * onnxruntime's idle intra-op threads spin while they wait for work (default false: they sleep). Spinning burnt
   * ~20 % of a K = 30 selection's CPU on a loaded 2-core machine for the same r (docs/METHOD-notes.md, 45-48).
   */
  spinning?: boolean;
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

/** What scores batches: the yes/no graph, or the export through transformers.js with its full logits. */
interface Runner {
  info: LoadedModelInfo;
  tokenizer: PreTrainedTokenizer;
  /** Tokens of logits one row position costs, to bound a batch's output (vocabulary size; 0 when bounded). */
  logitsPerPosition: number;
  run(rows: number[][], prefix?: PrefixCache): Promise<number[]>;
  /** Runs a shared prompt prefix once, when the graph returns its cache. */
  prefix?: (ids: number[]) => Promise<PrefixCache>;
  dispose(): Promise<void>;
}

function fullVocabularyRunner(m: LoadedModel, vocab: number, note?: string): Runner {
  const keepsLast = m.info.inputNames.includes('num_logits_to_keep');
  return {
    info: { ...m.info, head: 'full-vocabulary', ...(note ? { headNote: note } : {}) },
    tokenizer: m.tokenizer,
    logitsPerPosition: keepsLast ? 0 : vocab,
    async run(rows) {
      const { ids, mask, width } = leftPad(rows, QWEN3_END_OF_TEXT);
      const shape = [rows.length, width];
      const T = m.transformers;
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
    },
    dispose: async () => {
      await m.model.dispose();
    },
  };
}

async function loadRunner(options: OnnxCrossEncoderOptions, vocab: number): Promise<Runner> {
  if (options.head === 'full') return fullVocabularyRunner(await loadModel(options, 'lm'), vocab);
  try {
    const y = await loadYesNoModel(options, [QWEN3_YES, QWEN3_NO], {
      prefixCache: options.prefixCache ?? true,
      ...(options.cpuMemArena === false ? { cpuMemArena: false } : {}),
      ...(options.memPattern === false ? { memPattern: false } : {}),
      spinning: options.spinning ?? false,
    });
    return {
      ...y,
      logitsPerPosition: 0,
      run: (rows, prefix) => y.run(rows, QWEN3_END_OF_TEXT, prefix),
    };
  } catch (error) {
    const details = error instanceof CuratorError ? (error.details as { derivable?: boolean }) : undefined;
    if (details?.derivable !== false) throw error;
    return fullVocabularyRunner(await loadModel(options, 'lm'), vocab, errorText(error));
  }
}

/** Pairs that share a prompt head; a head shared by one pair only runs whole (a cache would not pay). */
function groupByHead(prompts: PromptIds[]): { indices: number[]; headLength: number }[] {
  const byHead = new Map<string, number[]>();
  prompts.forEach((p, i) => {
    const key = p.ids.slice(0, p.headLength).join(',');
    byHead.set(key, [...(byHead.get(key) ?? []), i]);
  });
  const shared: { indices: number[]; headLength: number }[] = [];
  const single: number[] = [];
  for (const indices of byHead.values()) {
    if (indices.length > 1) shared.push({ indices, headLength: prompts[indices[0]!]!.headLength });
    else single.push(...indices);
  }
  return single.length ? [...shared, { indices: single, headLength: 0 }] : shared;
}

async function prefixOf(m: Runner, ids: number[]): Promise<PrefixCache> {
  try {
    return await m.prefix!(ids);
  } catch (error) {
    throw new CuratorError('MODEL_ERROR', `Scoring failed: ${errorText(error)}`);
  }
}

export async function createOnnxCrossEncoder(options: OnnxCrossEncoderOptions): Promise<OnnxCrossEncoder> {
  const vocab = await readVocabSize(options.folder);
  const stats = emptyPaddingStats();
  const heads = createHeadMemo(options.reusedHeadBytes ?? 0);
  let loading: Promise<Runner> | undefined;
  const loaded = () => {
    loading ??= loadRunner(options, vocab).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  async function runBatch(m: Runner, rows: number[][], prefix?: PrefixCache): Promise<number[]> {
    try {
      return await m.run(rows, prefix);
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
      heads.clear();
      await m?.dispose();
    },
    async score(pairs: ScorePair[], opts: CrossScoreOptions): Promise<CrossScore[]> {
      const m = await loaded();
      const encode = (text: string) => m.tokenizer.encode(text, { add_special_tokens: false });
      const budget = opts.maxTokens ?? options.maxTokens ?? 1024;
      const prompts = rerankerPromptIds(encode, opts.instruction, pairs, budget);
      const logitsTokens = m.logitsPerPosition
        ? Math.max(1, Math.floor((options.maxLogitsBytes ?? 2 ** 30) / (m.logitsPerPosition * 4)))
        : Infinity;
      const limits = {
        maxBatchSize: options.maxBatchSize ?? 8,
        maxPaddingShare: options.maxPaddingShare,
        maxBatchTokens: Math.min(options.maxBatchTokens ?? 4096, logitsTokens),
      };
      const out = new Array<CrossScore>(pairs.length);
      let done = 0;
      // Groups of pairs that run together: with a prefix cache, the documents of one query after its shared head.
      const groups = m.prefix ? groupByHead(prompts) : [{ indices: prompts.map((_, i) => i), headLength: 0 }];
      for (const group of groups) {
        const head =
          m.prefix && group.headLength > 0
            ? await heads.get(
                opts.instruction,
                prompts[group.indices[0]!]!.ids.slice(0, group.headLength),
                () => prefixOf(m, prompts[group.indices[0]!]!.ids.slice(0, group.headLength)),
              )
            : undefined;
        const prefix = head && forBatches(head.cache);
        if (prefix && head?.computed)
          addPaddingStats(stats, batchStats([[...Array(prefix.length).keys()]], prefix.length));
        const rowOf = (i: number) => prompts[i]?.ids.slice(prefix ? group.headLength : 0) ?? [];
        // A row attends to the cache too: the batch bound counts it, so a batch costs the memory a whole-prompt
        // batch of the same rows would.
        const cached = prefix?.length ?? 0;
        // Each row holds its own copy of the head's cache, joined in every layer with its own keys and values: the
        // batch's cached tokens stay within a memory budget, so long heads and long rows get fewer rows per batch.
        const groupLimits = prefix
          ? {
              ...limits,
              maxBatchTokens: Math.min(
                limits.maxBatchTokens,
                cachedTokenBound(cacheBytesPerToken(prefix), options.maxRepeatedCacheBytes),
              ),
            }
          : limits;
        const planned = planBatches(
          group.indices.map((i) => cached + rowOf(i).length),
          groupLimits,
        );
        for (const part of options.longestFirst === false ? planned : longestFirst(planned)) {
          if (opts.signal?.aborted)
            throw new CuratorError('CANCELLED', 'Scoring cancelled', { done, total: pairs.length });
          const batch = part.map((k) => group.indices[k]!);
          const rows = batch.map(rowOf);
          const scores = await runBatch(m, rows, prefix);
          batch.forEach(
            (i, k) => (out[i] = { r: scores[k] ?? NaN, truncated: prompts[i]?.truncated ?? false }),
          );
          addPaddingStats(stats, batchStats(rows, Math.max(...rows.map((r) => r.length))));
          done += batch.length;
          opts.onProgress?.({ done, total: pairs.length });
          await yieldToEventLoop();
        }
      }
      return out;
    },
  };
}
