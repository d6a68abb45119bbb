// The ONNX embedder and cross-encoder on tiny Qwen3-shaped models through the real transformers.js + onnxruntime-node.
import { describe, expect, it } from 'vitest';
import { AutoTokenizer } from '@huggingface/transformers';
import { paddingWaste, planBatches } from '../../src/core/models/onnx/batches';
import { createOnnxEmbedder, queryText, QWEN3_END_OF_TEXT } from '../../src/core/models/onnx/qwen3-embedder';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';
import {
  QWEN3_NO,
  QWEN3_YES,
  rerankerPrefix,
  rerankerPrompt,
  rerankerPromptIds,
} from '../../src/core/models/onnx/qwen3-reranker-template';
import { ensureTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';
import { rawRow } from '../fixtures/tiny-models/raw-session';

const baseDir = ensureTinyQwen3({ head: 'base', dtypes: ['fp32', 'fp16'] });
const lmDir = ensureTinyQwen3({ head: 'lm', dtypes: ['fp32', 'fp16'] });
const lmKeepDir = ensureTinyQwen3({ head: 'lm', dtypes: ['fp32'], logitsToKeep: true });

const texts = [
  'pdf',
  'Extract tables from PDF files and convert them to CSV.',
  'A skill for writing unit tests in TypeScript with vitest, including fixtures, mocks and coverage reports.',
  'git',
  'Summarise a long research paper into key findings, methods and limitations for a busy reader.',
];

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return m;
}

function normalise(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const instruction = 'Given a task, judge whether the skill helps to solve it';
const pairs = texts.map((document, i) => ({
  query: i % 2 ? 'convert a pdf table' : 'write tests',
  document,
}));

const tokenizer = await AutoTokenizer.from_pretrained(baseDir);
const encode = (s: string) => tokenizer.encode(s, { add_special_tokens: false });

describe('ONNX Qwen3 embedder', () => {
  it('gives the same unit vectors batched as one by one', async () => {
    // Padding allowed up to 100 % so that short and long texts share a batch.
    const embedder = await createOnnxEmbedder({
      folder: baseDir,
      device: 'cpu',
      dtype: 'fp32',
      maxPaddingShare: 1,
    });
    const batched = await embedder.embed(texts, { role: 'document' });
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text], { role: 'document' });
      expect(maxAbsDiff(batched[i]!, alone!)).toBeLessThan(1e-5);
      expect(Math.hypot(...batched[i]!)).toBeCloseTo(1, 5);
    }
    expect(embedder.stats.paddedTokens).toBeGreaterThan(embedder.stats.tokens);
  });

  it('pools the end-of-text token of the unpadded sequence, which right padding would miss', async () => {
    const embedder = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const [vector] = await embedder.embed([texts[1]!, texts[2]!], { role: 'document' }).then((v) => [v[0]]);
    const ids = [...encode(texts[1]!), QWEN3_END_OF_TEXT];
    const reference = normalise(await rawRow(baseDir, ids));
    expect(maxAbsDiff(vector!, reference)).toBeLessThan(1e-5);
    const leftPadded = normalise(
      await rawRow(baseDir, ids, { pad: { side: 'left', count: 7, id: QWEN3_END_OF_TEXT } }),
    );
    expect(maxAbsDiff(leftPadded, reference)).toBeLessThan(1e-5);
    // The fixture is sensitive to the trap: pooling the last column of a right-padded row reads a pad.
    const rightPadded = normalise(
      await rawRow(baseDir, ids, { pad: { side: 'right', count: 7, id: QWEN3_END_OF_TEXT } }),
    );
    expect(maxAbsDiff(rightPadded, reference)).toBeGreaterThan(1e-2);
  });

  it('keeps the end-of-text token when a text is truncated', async () => {
    const embedder = await createOnnxEmbedder({
      folder: baseDir,
      device: 'cpu',
      dtype: 'fp32',
      maxTokens: 8,
    });
    const [vector] = await embedder.embed([texts[2]!], { role: 'document' });
    const cut = [...encode(texts[2]!).slice(0, 7), QWEN3_END_OF_TEXT];
    expect(maxAbsDiff(vector!, normalise(await rawRow(baseDir, cut)))).toBeLessThan(1e-5);
    const lostEnd = encode(texts[2]!).slice(0, 8);
    expect(maxAbsDiff(vector!, normalise(await rawRow(baseDir, lostEnd)))).toBeGreaterThan(1e-2);
  });

  it('wraps queries with the instruction and cuts dimensions before normalising', async () => {
    const full = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const instruction = 'Given a task, retrieve skills that help';
    const [asQuery] = await full.embed(['make a chart'], { role: 'query', instruction });
    const [wrapped] = await full.embed([queryText('make a chart', instruction)], { role: 'document' });
    expect(queryText('x', 'y')).toBe('Instruct: y\nQuery:x');
    expect(maxAbsDiff(asQuery!, wrapped!)).toBeLessThan(1e-6);

    const cut = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32', dimensions: 8 });
    const [short] = await cut.embed(['make a chart'], { role: 'document' });
    const [long] = await full.embed(['make a chart'], { role: 'document' });
    expect(cut.dim).toBe(8);
    expect(maxAbsDiff(short!, normalise(long!.slice(0, 8)))).toBeLessThan(1e-5);
  });

  it('reads float16 outputs as numbers', async () => {
    const fp16 = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp16' });
    const fp32 = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const [a] = await fp16.embed([texts[1]!], { role: 'document' });
    const [b] = await fp32.embed([texts[1]!], { role: 'document' });
    expect((await fp16.load()).dtype).toBe('fp16');
    expect(maxAbsDiff(a!, b!)).toBeLessThan(5e-3);
  });

  it('runs exports with an empty key/value cache input and exports without position_ids alike', async () => {
    const plain = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const expected = await plain.embed(texts, { role: 'document' });
    for (const variant of [{ pastKeyValues: true }, { positionIds: false }]) {
      const folder = ensureTinyQwen3({ head: 'base', ...variant });
      const embedder = await createOnnxEmbedder({ folder, device: 'cpu', dtype: 'fp32', maxPaddingShare: 1 });
      const got = await embedder.embed(texts, { role: 'document' });
      for (const i of texts.keys()) expect(maxAbsDiff(got[i]!, expected[i]!)).toBeLessThan(1e-5);
    }
    const lmCache = ensureTinyQwen3({ head: 'lm', pastKeyValues: true });
    const withCache = await createOnnxCrossEncoder({ folder: lmCache, device: 'cpu', maxPaddingShare: 1 });
    const without = await createOnnxCrossEncoder({ folder: lmDir, device: 'cpu', dtype: 'fp32' });
    expect((await withCache.load()).inputNames).toContain('past_key_values.0.key');
    const a = await withCache.score(pairs, { instruction });
    const b = await without.score(pairs, { instruction });
    for (const i of pairs.keys()) expect(a[i]!.r).toBeCloseTo(b[i]!.r, 4);
  });

  it('stops between batches when cancelled', async () => {
    const embedder = await createOnnxEmbedder({
      folder: baseDir,
      device: 'cpu',
      dtype: 'fp32',
      maxBatchSize: 1,
    });
    const controller = new AbortController();
    const progress: number[] = [];
    const run = embedder.embed(texts, {
      role: 'document',
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.done);
        controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress).toEqual([1]);
  });
});

describe('ONNX Qwen3 cross-encoder', () => {
  it('builds the model card prompt token for token, cutting only the document', () => {
    const [whole] = rerankerPromptIds(encode, instruction, [pairs[2]!], 1024);
    expect(whole!.truncated).toBe(false);
    expect(whole!.ids).toEqual(encode(rerankerPrompt(instruction, pairs[2]!.query, pairs[2]!.document)));

    const [cut] = rerankerPromptIds(encode, instruction, [pairs[2]!], 80);
    const head = encode(
      `${rerankerPrefix}<Instruct>: ${instruction}\n<Query>: ${pairs[2]!.query}\n<Document>:`,
    );
    const suffix = encode('<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n');
    expect(cut!.truncated).toBe(true);
    expect(cut!.ids).toHaveLength(80);
    expect(cut!.ids.slice(-suffix.length)).toEqual(suffix);
    expect(cut!.ids.slice(0, head.length)).toEqual(head);
  });

  it('scores r = logit(yes) - logit(no) at the last real token, batched as one by one', async () => {
    const encoder = await createOnnxCrossEncoder({
      folder: lmDir,
      device: 'cpu',
      dtype: 'fp32',
      maxPaddingShare: 1,
    });
    const batched = await encoder.score(pairs, { instruction });
    expect(encoder.stats.paddedTokens).toBeGreaterThan(encoder.stats.tokens);
    const prompts = rerankerPromptIds(encode, instruction, pairs, 1024);
    for (const [i, pair] of pairs.entries()) {
      const [alone] = await encoder.score([pair], { instruction });
      const logits = await rawRow(lmDir, prompts[i]!.ids);
      const reference = logits[QWEN3_YES]! - logits[QWEN3_NO]!;
      expect(batched[i]!.r).toBeCloseTo(reference, 4);
      expect(alone!.r).toBeCloseTo(reference, 4);
      expect(batched[i]!.truncated).toBe(false);
    }
    expect(new Set(batched.map((s) => s.r.toFixed(3))).size).toBe(pairs.length);
  });

  it('reports truncation and scores the cut prompt', async () => {
    const encoder = await createOnnxCrossEncoder({ folder: lmDir, device: 'cpu', dtype: 'fp32' });
    const [score] = await encoder.score([pairs[2]!], { instruction, maxTokens: 80 });
    const [cut] = rerankerPromptIds(encode, instruction, [pairs[2]!], 80);
    const logits = await rawRow(lmDir, cut!.ids);
    expect(score!.truncated).toBe(true);
    expect(score!.r).toBeCloseTo(logits[QWEN3_YES]! - logits[QWEN3_NO]!, 4);
  });

  it('gives the same scores with num_logits_to_keep and with full logits, and from float16 outputs', async () => {
    const common = { device: 'cpu', maxPaddingShare: 1, head: 'full' } as const;
    const full = await createOnnxCrossEncoder({ folder: lmDir, dtype: 'fp32', ...common });
    const keep = await createOnnxCrossEncoder({ folder: lmKeepDir, dtype: 'fp32', ...common });
    const fp16 = await createOnnxCrossEncoder({ folder: lmDir, dtype: 'fp16', ...common });
    const a = await full.score(pairs, { instruction });
    const b = await keep.score(pairs, { instruction });
    const c = await fp16.score(pairs, { instruction });
    expect((await keep.load()).inputNames).toContain('num_logits_to_keep');
    for (const i of pairs.keys()) {
      expect(b[i]!.r).toBeCloseTo(a[i]!.r, 4);
      expect(Math.abs(c[i]!.r - a[i]!.r)).toBeLessThan(0.05 + 0.01 * Math.abs(a[i]!.r));
    }
  });

  it('bounds full-vocabulary logits by shrinking batches, with little padding after sorting by length', async () => {
    // 151,669 logits x 4 bytes x 200 tokens: batches hold at most ~200 padded tokens.
    const encoder = await createOnnxCrossEncoder({
      folder: lmDir,
      device: 'cpu',
      dtype: 'fp32',
      head: 'full',
      maxLogitsBytes: 151_669 * 4 * 200,
    });
    const many = Array.from({ length: 12 }, (_, i) => ({ query: 'q', document: 'word '.repeat(i * 3) }));
    const scores = await encoder.score(many, { instruction });
    expect(scores).toHaveLength(12);
    expect(encoder.stats.batches).toBeGreaterThan(1);
    expect(encoder.stats.paddedTokens / encoder.stats.batches).toBeLessThanOrEqual(200);
    expect(paddingWaste(encoder.stats)).toBeLessThanOrEqual(0.1);
  });

  it('plans batches within the size, token and padding bounds, shortest first', () => {
    const lengths = [50, 3, 48, 10, 11, 12, 49, 300, 47, 9];
    const batches = planBatches(lengths, { maxBatchSize: 3, maxBatchTokens: 160, maxPaddingShare: 0.1 });
    expect(batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
    expect(batches[0]).toEqual([1]); // 3 with 9 would be mostly padding
    expect(batches.at(-1)).toEqual([7]); // longer than the token bound: runs alone
    for (const batch of batches) {
      const rows = batch.map((i) => lengths[i]!);
      const padded = rows.length * Math.max(...rows);
      expect(rows.length).toBeLessThanOrEqual(3);
      if (rows.length > 1) expect(padded).toBeLessThanOrEqual(160);
      expect(1 - rows.reduce((a, b) => a + b, 0) / padded).toBeLessThanOrEqual(0.1);
    }
  });
});
