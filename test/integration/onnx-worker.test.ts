// The model worker process: same results as in-process, a crash fails the caller (no hang) and the next call works,
// cancellation stops the worker between batches.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { createOnnxEmbedder } from '../../src/core/models/onnx/qwen3-embedder';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import { createModelWorkerHost } from '../../src/core/models/worker/host';
import {
  createWorkerCrossEncoder,
  createWorkerEmbedder,
  verifyInWorker,
} from '../../src/core/models/worker/worker-scorers';
import { ensureTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';

const baseDir = ensureTinyQwen3({ head: 'base', dtypes: ['fp32', 'fp16'] });
const lmDir = ensureTinyQwen3({ head: 'lm', dtypes: ['fp32', 'fp16'] });
const logLines: Record<string, unknown>[] = [];
const logger = createLogger('debug', (line) => logLines.push(JSON.parse(line) as Record<string, unknown>));
const host = createModelWorkerHost({ spawn: forkModelWorker(), logger });
afterAll(() => host.close());

const texts = Array.from({ length: 12 }, (_, i) => `skill number ${i}: ${'does things '.repeat(i + 1)}`);

describe('model worker', () => {
  it('embeds and scores in the worker with the in-process results', async () => {
    const embedder = await createWorkerEmbedder(host, { folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const local = await createOnnxEmbedder({ folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const remote = await embedder.embed(texts, { role: 'document' });
    const here = await local.embed(texts, { role: 'document' });
    expect(remote[3]).toBeInstanceOf(Float32Array);
    for (const i of texts.keys()) expect(Array.from(remote[i]!)).toEqual(Array.from(here[i]!));
    expect(await embedder.load()).toMatchObject({ device: 'cpu', dtype: 'fp32', file: 'onnx/model.onnx' });
    expect(embedder.stats).toEqual(local.stats);

    const encoder = await createWorkerCrossEncoder(host, { folder: lmDir, device: 'cpu', dtype: 'fp32' });
    const localEncoder = await createOnnxCrossEncoder({ folder: lmDir, device: 'cpu', dtype: 'fp32' });
    const pairs = [
      { query: 'q', document: 'd' },
      { query: 'heat the mug', document: texts[11]! },
    ];
    const options = { instruction: 'i', maxTokens: 80 };
    const scores = await encoder.score(pairs, options);
    expect(scores).toEqual(await localEncoder.score(pairs, options));
    expect(scores.map((x) => x.truncated)).toEqual([false, true]);
    expect(scores[0]!.r).not.toBe(scores[1]!.r);
    await localEncoder.dispose();
  });

  it('fails the request of a worker that dies mid-request, and the next request starts a fresh worker', async () => {
    const embedder = await createWorkerEmbedder(host, {
      folder: baseDir,
      device: 'cpu',
      dtype: 'fp32',
      maxBatchSize: 1,
    });
    await embedder.load();
    const firstPid = host.pid;
    let killed = false;
    // Enough batches that the worker is still busy when the kill lands, however slow the message is to arrive.
    const many = Array.from({ length: 300 }, (_, i) => `text ${i}`);
    const run = embedder.embed(many, {
      role: 'document',
      onProgress: () => {
        if (killed) return;
        killed = true;
        process.kill(firstPid!, 'SIGKILL'); // what the OOM killer does
      },
    });
    await expect(run).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      message: expect.stringMatching(/SIGKILL/),
    });
    const again = await embedder.embed(texts.slice(0, 2), { role: 'document' });
    expect(again).toHaveLength(2);
    expect(host.pid).not.toBe(firstPid);
  });

  it('stops work when cancelled and stays usable', async () => {
    const embedder = await createWorkerEmbedder(host, {
      folder: baseDir,
      device: 'cpu',
      dtype: 'fp32',
      maxBatchSize: 1,
    });
    await embedder.load();
    const pid = host.pid;
    const controller = new AbortController();
    // Enough batches that the worker is still busy when the cancel message arrives.
    const many = Array.from({ length: 300 }, (_, i) => `text ${i}`);
    const run = embedder.embed(many, {
      role: 'document',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    // The next request waits for the worker to drop the cancelled one; the worker reports how far it got.
    expect(await embedder.embed(['after'], { role: 'document' })).toHaveLength(1);
    const stopped = logLines.find((l) => l.message === 'model worker stopped a cancelled request');
    expect(stopped).toBeDefined();
    expect(stopped!.done as number).toBeLessThan(many.length);
    expect(host.pid).toBe(pid);
  });

  it('drops a queued request that is cancelled before it starts', async () => {
    const embedder = await createWorkerEmbedder(host, { folder: baseDir, device: 'cpu', dtype: 'fp32' });
    const controller = new AbortController();
    const first = embedder.embed(texts, { role: 'document' });
    const second = embedder.embed(texts, { role: 'document', signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await first).toHaveLength(texts.length);
  });

  it('verifies a model folder in the worker', async () => {
    expect(await verifyInWorker(host, lmDir, 'reranker')).toMatchObject({ ok: true, outputs: ['logits'] });
    const wrongRole = await verifyInWorker(host, lmDir, 'embedder');
    expect(wrongRole.ok).toBe(false);
  });

  it('returns a model error as data and keeps the worker', async () => {
    const embedder = await createWorkerEmbedder(host, { folder: baseDir, device: 'cpu', dtype: 'q4' });
    const pid = host.pid;
    await expect(embedder.embed(['x'], { role: 'document' })).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      message: expect.stringContaining('onnx/model_q4.onnx is missing'),
    });
    expect(host.pid).toBe(pid);
  });
});
