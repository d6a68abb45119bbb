// The derived yes/no graph on tiny Qwen3-shaped models: same r as the full-vocabulary export, made once beside the
// original (which stays byte for byte), reused, made again when the export changes, and a clear fall back.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureYesNoModel, YESNO_OUTPUT } from '../../src/core/models/onnx/derive-yesno';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';
import { QWEN3_NO, QWEN3_YES } from '../../src/core/models/onnx/qwen3-reranker-template';
import { instructions } from '../../src/core/select/instructions';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { defaultSettings } from '../../src/shared/settings';
import { quantizeDynamic } from '../fixtures/tiny-models/quantize-dynamic';
import { DataType, GraphBuilder } from '../fixtures/tiny-models/onnx-proto';
import { ensureTinyQwen3, QWEN3_VOCAB, type TinyQwen3Options } from '../fixtures/tiny-models/tiny-qwen3';

const instruction =
  'Given a state of an agent task, judge whether the state described by the Document matches it';
const pairs = [
  { query: 'The robot holds a mug.', document: 'The robot is holding a cup.' },
  { query: 'The robot holds a mug.', document: 'The mug is in the microwave and the door is closed.' },
  {
    query: 'put a hot mug in the coffee machine',
    document:
      'household-heat-object-microwave | Heat an object in the microwave | Open the microwave, put the object in, ' +
      'close the door, turn it on, wait, open it and take the hot object out. '.repeat(3),
  },
  { query: 'put a hot mug in the coffee machine', document: 'git | Commit changes | Stage and commit.' },
];

const scratch = mkdtempSync(path.join(os.tmpdir(), 'yesno-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A private copy of a tiny model folder, so that files derived in one test do not leak into another. */
function copyOf(options: TinyQwen3Options): string {
  const dir = mkdtempSync(path.join(scratch, 'model-'));
  cpSync(ensureTinyQwen3(options), dir, { recursive: true });
  return dir;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function maxAbsDiff(a: number[], b: number[]): number {
  return Math.max(...a.map((x, i) => Math.abs(x - (b[i] ?? NaN))));
}

async function bothHeads(folder: string, dtype: 'fp32' | 'fp16' = 'fp32') {
  const common = { folder, device: 'cpu', dtype, maxPaddingShare: 1 } as const;
  const full = await createOnnxCrossEncoder({ ...common, head: 'full' });
  const yesNo = await createOnnxCrossEncoder(common);
  const a = (await full.score(pairs, { instruction })).map((s) => s.r);
  const b = (await yesNo.score(pairs, { instruction })).map((s) => s.r);
  const info = { full: await full.load(), yesNo: await yesNo.load() };
  await full.dispose();
  await yesNo.dispose();
  return { full: a, yesNo: b, info };
}

describe('yes/no graph derived from the reranker export', () => {
  it.each([
    ['plain export', { head: 'lm' }],
    ['num_logits_to_keep', { head: 'lm', logitsToKeep: true }],
    ['key/value cache inputs', { head: 'lm', pastKeyValues: true }],
    ['no position_ids', { head: 'lm', positionIds: false }],
  ] as const)('gives the full-vocabulary r to 1e-5 (%s, fp32)', async (_name, options) => {
    const folder = copyOf(options);
    const { full, yesNo, info } = await bothHeads(folder);
    expect(info.yesNo.head).toBe('yes-no');
    // An export with a key/value cache gets the variant that keeps it (prompt-prefix reuse, onnx-prefix-cache.test).
    const cached = 'pastKeyValues' in options;
    expect(info.yesNo.file).toBe(cached ? 'onnx/model.yesno-kv.onnx' : 'onnx/model.yesno.onnx');
    expect(info.yesNo.derivedFrom).toBe('onnx/model.onnx');
    expect(info.yesNo.outputNames[0]).toBe(YESNO_OUTPUT);
    expect(info.yesNo.outputNames.length).toBe(cached ? 3 : 1);
    expect(info.full.head).toBe('full-vocabulary');
    expect(maxAbsDiff(yesNo, full)).toBeLessThan(1e-5);
    // Not a constant: the pairs score apart, so equality says something.
    expect(new Set(full.map((r) => r.toFixed(3))).size).toBe(pairs.length);
  });

  it('reads float16 outputs of a derived fp16 graph', async () => {
    const folder = copyOf({ head: 'lm', dtypes: ['fp16'] });
    const { full, yesNo, info } = await bothHeads(folder, 'fp16');
    expect(info.yesNo.file).toBe('onnx/model_fp16.yesno.onnx');
    expect(maxAbsDiff(yesNo, full)).toBeLessThan(2e-2);
  });

  it('cuts down a q8 head (DynamicQuantizeLinear, MatMulInteger, scale) to the same r', async () => {
    const folder = copyOf({ head: 'lm' });
    quantizeDynamic(path.join(folder, 'onnx/model.onnx'), path.join(folder, 'onnx/model_quantized.onnx'));
    const common = { folder, device: 'cpu', dtype: 'q8', maxPaddingShare: 1 } as const;
    const full = await createOnnxCrossEncoder({ ...common, head: 'full' });
    const yesNo = await createOnnxCrossEncoder(common);
    const a = (await full.score(pairs, { instruction })).map((s) => s.r);
    const b = (await yesNo.score(pairs, { instruction })).map((s) => s.r);
    expect((await yesNo.load()).file).toBe('onnx/model_quantized.yesno.onnx');
    expect((await full.load()).inputNames).toEqual(['input_ids', 'attention_mask', 'position_ids']);
    expect(maxAbsDiff(b, a)).toBeLessThan(1e-4);
    // q8 is a different model from fp32: close, not equal.
    const fp32 = await createOnnxCrossEncoder({ ...common, dtype: 'fp32' });
    const c = (await fp32.score(pairs, { instruction })).map((s) => s.r);
    expect(maxAbsDiff(b, c)).toBeGreaterThan(1e-4);
    for (const e of [full, yesNo, fp32]) await e.dispose();
  });

  it('computes two logits at one position, from the original weights in place', async () => {
    const folder = copyOf({ head: 'lm' });
    await ensureYesNoModel(folder, 'onnx/model.onnx', [QWEN3_YES, QWEN3_NO]);
    const session = await ort.InferenceSession.create(path.join(folder, 'onnx/model.yesno.onnx'));
    const ids = [1, 2, 3, 4, 5, 6];
    const feeds = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, 6]),
      attention_mask: new ort.Tensor('int64', BigInt64Array.from(ids.map(() => 1n)), [1, 6]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map((_, i) => BigInt(i))), [1, 6]),
    };
    const out = (await session.run(feeds))[YESNO_OUTPUT]!;
    expect(out.dims).toEqual([1, 1, 2]);
    await session.release();
    // The 9.7 MB embedding stays in model.onnx; the derived graph refers to it there.
    const sizes = (f: string) => statSync(path.join(folder, 'onnx', f)).size;
    expect(sizes('model.onnx')).toBeGreaterThan(QWEN3_VOCAB * 16 * 4);
    expect(sizes('model.yesno.onnx')).toBeLessThan(100_000);
  });

  it('writes the derived graph once, keeps the original, and makes it again when the export changes', async () => {
    const folder = copyOf({ head: 'lm' });
    const source = path.join(folder, 'onnx/model.onnx');
    const before = sha(source);
    const first = await ensureYesNoModel(folder, 'onnx/model.onnx', [QWEN3_YES, QWEN3_NO]);
    expect(first).toEqual({ file: 'onnx/model.yesno.onnx', source: 'onnx/model.onnx', created: true });
    const derived = path.join(folder, first.file);
    const written = statSync(derived).mtimeMs;

    const encoder = await createOnnxCrossEncoder({ folder, device: 'cpu', dtype: 'fp32' });
    await encoder.score(pairs.slice(0, 1), { instruction });
    await encoder.dispose();
    const again = await ensureYesNoModel(folder, 'onnx/model.onnx', [QWEN3_YES, QWEN3_NO]);
    expect(again.created).toBe(false);
    expect(statSync(derived).mtimeMs).toBe(written);
    expect(sha(source)).toBe(before);

    // A re-downloaded export (new bytes or time) gets a fresh derived graph.
    const later = new Date(Date.now() + 5000);
    utimesSync(source, later, later);
    expect((await ensureYesNoModel(folder, 'onnx/model.onnx', [QWEN3_YES, QWEN3_NO])).created).toBe(true);
    expect(sha(source)).toBe(before);
    // The original still runs as the full-vocabulary export.
    const session = await ort.InferenceSession.create(source);
    expect(session.outputNames).toEqual(['logits']);
    await session.release();
  });

  it('falls back to the full-vocabulary graph, saying why, when the head is not a MatMul with a weight', async () => {
    const folder = copyOf({ head: 'lm' });
    // logits = Relu(embedding rows · embeddingᵀ): a step the derivation does not pass through.
    const g = new GraphBuilder();
    const ids = g.input('input_ids', DataType.INT64, ['batch_size', 'sequence_length']);
    g.input('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']);
    g.input('position_ids', DataType.INT64, ['batch_size', 'sequence_length']);
    const emb = new Float32Array(QWEN3_VOCAB * 4).map((_, i) => Math.sin(i));
    const w = g.weight('embed', [QWEN3_VOCAB, 4], emb);
    const x = g.op('Gather', [w, ids], { axis: 0 });
    const logits = g.op('Relu', [g.op('MatMul', [x, g.op('Transpose', [w], { perm: [1, 0] })])]);
    g.op('Identity', [logits], undefined, 'logits');
    g.output('logits', DataType.FLOAT, ['batch_size', 'sequence_length', QWEN3_VOCAB]);
    writeFileSync(path.join(folder, 'onnx/model.onnx'), g.encode());

    const encoder = await createOnnxCrossEncoder({ folder, device: 'cpu', dtype: 'fp32' });
    const scores = await encoder.score(pairs.slice(0, 2), { instruction });
    const info = await encoder.load();
    expect(info.head).toBe('full-vocabulary');
    expect(info.file).toBe('onnx/model.onnx');
    expect(info.headNote).toMatch(/Relu/);
    expect(scores.every((s) => Number.isFinite(s.r))).toBe(true);
    await encoder.dispose();
  });
});

describe('per-use token budgets', () => {
  const state =
    'The robot is in the kitchen, holding the mug, next to the counter and the open microwave. '.repeat(3);

  it('gives alignment pairs their own budget and the other uses the document budget', async () => {
    const folder = copyOf({ head: 'lm' });
    const encoder = await createOnnxCrossEncoder({ folder, device: 'cpu', dtype: 'fp32' });
    const provider = crossEncoderScoreProvider(encoder, {
      maxTokens: 1024,
      maxTokensByUse: { align: 96 },
    });
    const pair = { query: 'The robot holds a mug.', document: state };
    const [align] = await provider.score(instructions.align, [pair]);
    const [relevance] = await provider.score(instructions.relevance, [pair]);
    expect(align).toMatchObject({ truncated: true });
    expect(relevance).toMatchObject({ truncated: false });
    expect(encoder.stats.tokens).toBeLessThanOrEqual(96 + 200);
    expect(defaultSettings().selection.crossEncoderAlignMaxTokens).toBe(256);
    await encoder.dispose();
  });

  it('batches short alignment pairs together, not padded to the documents scored with them', async () => {
    const folder = copyOf({ head: 'lm' });
    const encoder = await createOnnxCrossEncoder({ folder, device: 'cpu', dtype: 'fp32', maxBatchSize: 16 });
    const short = Array.from({ length: 6 }, (_, i) => ({
      query: 'The mug is hot.',
      document: `State ${i}.`,
    }));
    const long = pairs.slice(2, 3).concat({ query: 'q', document: state.repeat(4) });
    const scores = await encoder.score([...long, ...short], { instruction });
    expect(scores).toHaveLength(8);
    // Six short rows in one batch, each long row alone: no row is padded to a document's length.
    expect(encoder.stats.batches).toBe(3);
    expect(encoder.stats.paddedTokens).toBeLessThanOrEqual(encoder.stats.tokens * 1.1);
    await encoder.dispose();
  });
});
