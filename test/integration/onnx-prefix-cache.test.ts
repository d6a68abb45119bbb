// Prompt-prefix reuse on a tiny Qwen3-shaped export with a real key/value cache: the prefix (system line,
// instruction, query) runs once per query and feeds every document's run. r must equal the whole-prompt runs (the
// yes/no graph without the cache, and the export's full-vocabulary logits) to float rounding, with padding between
// the prefix and the rows, several batches per query, and a query that has one document only.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { addDerivedModel } from '../../src/core/models/manager/derived-model';
import { verifyModelFolder } from '../../src/core/models/manager/verify-folder';
import { REUSED_HEAD_BYTES } from '../../src/core/models/onnx/head-memo';
import { computePrefixCache, rowFeeds } from '../../src/core/models/onnx/prefix-cache';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';
import { ensureTinyQwen3, type TinyQwen3Options } from '../fixtures/tiny-models/tiny-qwen3';

const instruction =
  'Given a task and one of its stages, judge whether the skill in the Document performs the stage';
const documents = [
  'household-heat-object-microwave | Heat an object in the microwave | Open the microwave, put the object in.',
  'git | Commit changes | Stage and commit.',
  'coffee | Make coffee | Put a mug under the spout and press the button; wait until the cup is full.',
  'put-object | Put an object somewhere | Walk to the receptacle and place the object you hold in or on it.',
  'clean | Clean an object in the sink | Turn on the tap, rinse the object and turn the tap off again.',
];
const pairs = [
  ...documents.map((document) => ({ query: 'put a hot mug in the coffee machine', document })),
  ...documents.slice(1).map((document) => ({ query: 'Heat the mug.', document })),
  { query: 'A query with one document only, which runs whole.', document: documents[0]! },
];

// Each test loads the tiny model three times; on a loaded 2-core machine that takes minutes, not the default 60 s.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'prefix-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyOf(options: TinyQwen3Options): string {
  const dir = mkdtempSync(path.join(scratch, 'model-'));
  cpSync(ensureTinyQwen3(options), dir, { recursive: true });
  return dir;
}

async function scores(
  folder: string,
  options: { head?: 'full'; prefixCache?: boolean; maxRepeatedCacheBytes?: number },
) {
  // Small batches with any padding share: rows of one query split across batches and pad against each other.
  const encoder = await createOnnxCrossEncoder({
    folder,
    device: 'cpu',
    dtype: 'fp32',
    maxBatchSize: 3,
    maxPaddingShare: 1,
    ...options,
  });
  const r = (await encoder.score(pairs, { instruction })).map((s) => s.r);
  const info = await encoder.load();
  const stats = { ...encoder.stats };
  await encoder.dispose();
  return { r, info, stats };
}

const maxAbsDiff = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - (b[i] ?? NaN))));
const order = (r: number[]) => r.map((_, i) => i).sort((a, b) => (r[b] ?? 0) - (r[a] ?? 0));

describe('prompt-prefix reuse through the key/value cache', () => {
  it('gives the whole-prompt r to 1e-5 and the same order, computing fewer tokens', async () => {
    const folder = copyOf({ head: 'lm', pastKeyValues: true });
    const cached = await scores(folder, {});
    const whole = await scores(folder, { prefixCache: false });
    const full = await scores(folder, { head: 'full' });

    expect(cached.info.prefixCache).toBe(true);
    expect(cached.info.file).toBe('onnx/model.yesno-kv.onnx');
    expect(whole.info.prefixCache).toBeUndefined();
    expect(whole.info.file).toBe('onnx/model.yesno.onnx');
    // The pairs score apart, so equality says something.
    expect(new Set(full.r.map((r) => r.toFixed(3))).size).toBe(pairs.length);
    expect(maxAbsDiff(cached.r, whole.r)).toBeLessThan(1e-5);
    expect(maxAbsDiff(cached.r, full.r)).toBeLessThan(1e-5);
    expect(order(cached.r)).toEqual(order(full.r));
    // Two shared heads ran once each instead of once per document.
    expect(cached.stats.tokens).toBeLessThan(whole.stats.tokens);
  }, 300_000);

  it('caps rows per batch by the bytes of the repeated head cache, with the same r', async () => {
    const folder = copyOf({ head: 'lm', pastKeyValues: true });
    const cached = await scores(folder, {});
    // A budget below one row's cache: every document after a shared head runs alone.
    const oneRow = await scores(folder, { maxRepeatedCacheBytes: 1 });
    expect(maxAbsDiff(oneRow.r, cached.r)).toBeLessThan(1e-5);
    // 9 documents after 2 heads: 9 single-row batches + 2 head runs + the lone pair's whole prompt.
    expect(oneRow.stats.batches).toBe(12);
    expect(cached.stats.batches).toBeLessThan(oneRow.stats.batches);
    expect(oneRow.stats.tokens).toBe(cached.stats.tokens);
  }, 300_000);

  it('keeps a query head between calls of one instruction: the same r bit for bit, the head run once', async () => {
    const folder = copyOf({ head: 'lm', pastKeyValues: true });
    const open = (reusedHeadBytes: number) =>
      createOnnxCrossEncoder({
        folder,
        device: 'cpu',
        dtype: 'fp32',
        maxBatchSize: 3,
        maxPaddingShare: 1,
        reusedHeadBytes,
      });
    const query = 'put a hot mug in the coffee machine';
    const round = (docs: string[]) => docs.map((document) => ({ query, document }));
    const kept = await open(REUSED_HEAD_BYTES);
    // The default keeps none (peak RSS), as before the memo.
    const fresh = await createOnnxCrossEncoder({
      folder,
      device: 'cpu',
      dtype: 'fp32',
      maxBatchSize: 3,
      maxPaddingShare: 1,
    });
    try {
      // Two rounds of one use, as the stage-fit and alignment cuts ask for them.
      await kept.score(round(documents.slice(0, 2)), { instruction });
      const before = { ...kept.stats };
      const second = (await kept.score(round(documents.slice(2)), { instruction })).map((s) => s.r);
      const alone = (await fresh.score(round(documents.slice(2)), { instruction })).map((s) => s.r);
      expect(second).toEqual(alone);
      // The second round ran its document batches only: the head came from the first.
      expect(kept.stats.batches - before.batches).toBe(fresh.stats.batches - 1);
      expect(kept.stats.tokens - before.tokens).toBeLessThan(fresh.stats.tokens);

      // Another instruction drops the kept heads (memory), so the next round of the first runs its head again.
      await kept.score(round(documents.slice(0, 2)), {
        instruction: 'Judge whether the skill achieves the state',
      });
      const third = { ...kept.stats };
      const again = (await kept.score(round(documents.slice(2)), { instruction })).map((s) => s.r);
      expect(again).toEqual(alone);
      expect(kept.stats.batches - third.batches).toBe(fresh.stats.batches);
    } finally {
      await kept.dispose();
      await fresh.dispose();
    }
  }, 300_000);

  it('derives the with-cache graph when the model is added, and scoring runs that file', async () => {
    const folder = copyOf({ head: 'lm', pastKeyValues: true });
    const report = await addDerivedModel(await verifyModelFolder(folder, 'reranker'));
    expect(report.derivedFile).toBe('onnx/model.yesno-kv.onnx');
    const { info } = await scores(folder, {});
    expect(info.file).toBe(report.derivedFile);
    expect(info.outputNames).toEqual(['yes_no_logits', 'present.0.key', 'present.0.value']);
    // The prefix run keeps its cache; document runs return none (cache_keep = 0), so a batch holds no 28-layer copy.
    const session = await ort.InferenceSession.create(path.join(folder, report.derivedFile!));
    const cache = await computePrefixCache(ort, session, [1, 2, 3, 4]);
    expect(cache.past.get('past_key_values.0.key')!.dims).toEqual([1, 1, 4, 16]);
    const rows = await session.run(rowFeeds(ort, session, [[5, 6], [7]], 0, cache));
    expect(rows['present.0.key']!.dims).toEqual([2, 1, 0, 16]);
    expect(rows.yes_no_logits!.dims).toEqual([2, 1, 2]);
    await session.release();
  }, 300_000);

  it('runs whole prompts on an export without a cache', async () => {
    const folder = copyOf({ head: 'lm' });
    const plain = await scores(folder, {});
    const full = await scores(folder, { head: 'full' });
    expect(plain.info.prefixCache).toBeUndefined();
    expect(plain.info.file).toBe('onnx/model.yesno.onnx');
    expect(maxAbsDiff(plain.r, full.r)).toBeLessThan(1e-5);
  }, 300_000);
});
