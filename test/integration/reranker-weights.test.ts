// The reranker's weights are named wherever its scores go (issue 10, q8): the model slot's dtype `auto` picks the q8
// export on the CPU, and q8's r are not the fp32 model's, so the trace, the CLI's text and the engine id (the key of
// the score cache and of the measured throughput) say `q8`, and switching the slot to fp32 — the exact preset as
// METHOD.md means it — never reuses a q8 score. Real tiny ONNX models in the model worker; the q8 file is quantised
// here as onnxruntime's quantize_dynamic would.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import { createOnnxEngineFactory } from '../../src/core/models/onnx-engine-factory';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import { renderTrace } from '../../src/core/select/render-trace';
import { describeScorers } from '../../src/renderer/src/select/trace-view';
import { quantizeDynamic } from '../fixtures/tiny-models/quantize-dynamic';
import { writeTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';
import { mugTask } from '../fixtures/mug-task';

const resources = path.resolve('resources');
const { task, parse } = mugTask;
let dir: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-weights-'));
  const reranker = path.join(dir, 'reranker');
  writeTinyQwen3(reranker, { head: 'lm', hidden: 16, seed: 4, dtypes: ['fp32'] });
  quantizeDynamic(
    path.join(reranker, 'onnx', 'model.onnx'),
    path.join(reranker, 'onnx', 'model_quantized.onnx'),
  );
  core = createCore({
    dataDir: path.join(dir, 'data'),
    resourcesDir: resources,
    engineFactories: {
      onnx: createOnnxEngineFactory({ spawn: forkModelWorker(), cacheDir: path.join(dir, 'cache') }),
    },
  });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  const report = await core['models.add']({ role: 'reranker', path: reranker, dtype: 'auto', device: 'cpu' });
  // `auto` is the slot's default: it verifies the file the CPU picks, not a file named after `auto`.
  expect(report).toMatchObject({ ok: true, problems: [] });
}, 180_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the reranker’s weights in the exact preset', () => {
  it('names q8 when dtype auto picks it, and fp32 scores are never served from the q8 ones', async () => {
    const q8 = await core['select.run']({ task, variant: 'full', preset: 'exact', parse, recallK: 4 });
    for (const use of ['align', 'relevance', 'stage-fit'] as const)
      expect(q8.trace.scorers![use]).toMatchObject({
        tier: 'cross-encoder',
        engine: 'reranker@q8',
        weights: 'q8',
      });
    expect(q8.trace.models.crossEncoder).toBe('reranker@q8');
    const text = renderTrace(q8.trace);
    expect(text).toContain('relevance cross-encoder reranker@q8 [q8]');
    expect(text).toMatch(/Weights: q8 weights: quantised, so r differ from the fp32 model's/);
    // The Selection lab's line under the answer.
    expect(describeScorers(q8.trace)).toBe(
      "preset exact: cross-encoder reranker@q8 [q8] for every use · q8 weights: quantised, so r differ from the fp32 model's (not METHOD.md's exact scores; set the model's dtype to fp32 for those)",
    );

    const slot = (await core['settings.get']({})).models.reranker;
    await core['settings.update']({ patch: { models: { reranker: { ...slot, dtype: 'fp32' } } } });
    const fp32 = await core['select.run']({ task, variant: 'full', preset: 'exact', parse, recallK: 4 });
    expect(fp32.trace.scorers!.relevance).toMatchObject({ engine: 'reranker', weights: 'fp32' });
    expect(renderTrace(fp32.trace)).not.toContain('Weights:');
    expect(describeScorers(fp32.trace)).toBe('preset exact: cross-encoder reranker [fp32] for every use');
    // The same candidates, scored again by the fp32 model: quantisation moved every rho.
    expect(fp32.trace.candidates.map((c) => c.name)).toEqual(q8.trace.candidates.map((c) => c.name));
    const rho = (t: typeof q8.trace) => t.candidates.map((c) => c.rho!);
    rho(fp32.trace).forEach((r, i) => expect(r).not.toBe(rho(q8.trace)[i]));
  }, 180_000);
});
