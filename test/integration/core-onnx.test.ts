// The ONNX engines through the whole API: a tiny Qwen3-shaped embedder and reranker (real transformers.js and
// onnxruntime-node in the model worker) installed with models.add, the vector index built as a job, dense and
// hybrid search, and a selection whose scores come from the reranker.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import { createOnnxEngineFactory } from '../../src/core/models/onnx-engine-factory';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import { instructions } from '../../src/core/select/instructions';
import { writeTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';

const resources = path.resolve('resources');
let dir: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-onnx-core-'));
  writeTinyQwen3(path.join(dir, 'embedder'), { head: 'base', hidden: 32, seed: 3, dtypes: ['fp32'] });
  writeTinyQwen3(path.join(dir, 'reranker'), { head: 'lm', hidden: 16, seed: 4, dtypes: ['fp32'] });
  core = createCore({
    dataDir: path.join(dir, 'data'),
    resourcesDir: resources,
    engineFactories: {
      onnx: createOnnxEngineFactory({ spawn: forkModelWorker(), cacheDir: path.join(dir, 'cache') }),
    },
  });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}, 180_000);

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ONNX engines through the API', () => {
  it('rejects a folder that is not a model, with the reasons, and keeps the lexical engine', async () => {
    const report = await core['models.add']({ role: 'embedder', path: path.join(dir, 'data') });
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.message).join(' ')).toMatch(/config\.json/);
    expect((await core['models.status']({}))[0]).toMatchObject({ engine: 'lexical' });
  });

  it('installs the embedder, builds the index as a job, and searches densely and by hybrid', async () => {
    const report = await core['models.add']({
      role: 'embedder',
      path: path.join(dir, 'embedder'),
      dtype: 'fp32',
      device: 'cpu',
    });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect((await core['index.status']({})).stale).toBe(true);

    const job = await core['index.build']({});
    const done = await core['jobs.wait']({ id: job.id });
    expect(done.status).toBe('done');
    const status = await core['index.status']({});
    expect(status).toMatchObject({ vectors: status.skills, missing: 0, stale: false, dim: 32 });

    const dense = await core['library.search']({ query: 'heat the mug', mode: 'dense', limit: 5 });
    expect(dense.hits).toHaveLength(5);
    expect(dense.engine).toBe('embedder');
    const cosines = dense.hits.map((h) => h.score);
    expect([...cosines].sort((a, b) => b - a)).toEqual(cosines);

    const hybrid = await core['library.search']({ query: 'heat the mug', mode: 'hybrid', limit: 5 });
    expect(hybrid.engine).toMatch(/^rrf\(/);
    expect(hybrid.hits.some((h) => h.ranks.dense !== undefined)).toBe(true);

    const [embedderStatus] = await core['models.status']({});
    expect(embedderStatus).toMatchObject({ engine: 'onnx', loaded: true, provider: 'cpu' });
  }, 180_000);

  it('selects with the reranker as the cross-encoder and records which models scored', async () => {
    const report = await core['models.add']({
      role: 'reranker',
      path: path.join(dir, 'reranker'),
      dtype: 'fp32',
      device: 'cpu',
    });
    expect(report.ok).toBe(true);
    // Adding the reranker derives its yes/no graph beside the export, once; scoring runs that file.
    expect(report.derivedFile).toBe('onnx/model.yesno.onnx');
    expect(existsSync(path.join(dir, 'reranker', 'onnx', 'model.yesno.onnx'))).toBe(true);
    expect(existsSync(path.join(dir, 'reranker', 'onnx', 'model.onnx'))).toBe(true);
    const r = await core['select.run']({
      task: 'put a hot mug in the coffee machine',
      variant: 'no-parse',
      k: 2,
      recallK: 5,
    });
    expect(r.trace.models.crossEncoder).toBe('reranker');
    expect(r.trace.models.recall).toBe('embedder');
    // C is the dense recall's top 5 for the task, in cosine order.
    const task = 'put a hot mug in the coffee machine';
    const dense = await core['library.search']({ query: task, mode: 'dense', limit: 5 });
    expect(r.trace.candidates.map((c) => c.name)).toEqual(dense.hits.map((h) => h.skill.name));
    // rho_k = r(q, c_k) as the same reranker, loaded here in-process, scores `name | description | body` under the
    // relevance instruction; the answer is the top k by rho.
    const encoder = await createOnnxCrossEncoder({
      folder: path.join(dir, 'reranker'),
      dtype: 'fp32',
      device: 'cpu',
    });
    try {
      const docs = await Promise.all(
        r.trace.candidates.map(async (c) => {
          const skill = await core['library.get']({ name: c.name });
          return `${skill.name} | ${skill.description} | ${skill.body}`;
        }),
      );
      const direct = await encoder.score(
        docs.map((document) => ({ query: task, document })),
        { instruction: instructions.relevance.text, maxTokens: 1024 },
      );
      r.trace.candidates.forEach((c, i) => expect(c.rho).toBeCloseTo(direct[i]!.r, 4));
      // The budget in the settings reaches the reranker: at 128 tokens the documents are cut and the trace says so.
      await core['settings.update']({ patch: { selection: { crossEncoderMaxTokens: 128 } } });
      const small = await core['select.run']({ task, variant: 'no-parse', k: 2, recallK: 5 });
      const cut = await encoder.score(
        docs.map((document) => ({ query: task, document })),
        { instruction: instructions.relevance.text, maxTokens: 128 },
      );
      expect(cut.every((x) => x.truncated)).toBe(true);
      small.trace.candidates.forEach((c, i) => expect(c.rho).toBeCloseTo(cut[i]!.r, 4));
      expect(small.trace.scores.map((x) => x.truncated)).toEqual(docs.map(() => true));
      await core['settings.update']({ patch: { selection: { crossEncoderMaxTokens: 1024 } } });
    } finally {
      await encoder.dispose();
    }
    const byRho = [...r.trace.candidates].sort((a, b) => b.rho! - a.rho! || a.index - b.index);
    expect(r.answer.map((a) => a.name)).toEqual(byRho.slice(0, 2).map((c) => c.name));
    const status = (await core['models.status']({})).find((e) => e.role === 'reranker');
    expect(status).toMatchObject({ loaded: true, modelFile: 'onnx/model.yesno.onnx' });
  }, 180_000);
});
