// The selection presets on tiny real ONNX models (transformers.js and onnxruntime-node in the model worker): the index
// stores the skill side, the fast preset embeds only the task side (counted by a recording wrapper around the real
// embedder), a state edit re-embeds that skill's states only, the trace names the preset, scorers and calibration,
// the estimate comes before the run, progress arrives while it runs, and cancel stops the scoring.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import type { EngineFactory } from '../../src/core/engines';
import { createOnnxEngineFactory } from '../../src/core/models/onnx-engine-factory';
import type { CrossEncoder, Embedder } from '../../src/core/models/ports';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import { skillDocument } from '../../src/core/select/documents';
import { renderTrace } from '../../src/core/select/render-trace';
import type { CuratorEvent } from '../../src/shared/events';
import { writeTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';

const resources = path.resolve('resources');
const task = 'put a hot mug in the coffee machine';
const parse = {
  subtasks: [
    'Find the mug and take it',
    'Heat the mug in the microwave',
    'Put the mug in the coffee machine',
  ],
  states: [
    'The mug is somewhere in the kitchen',
    'The agent holds the mug',
    'The mug is hot',
    'The hot mug is in the coffee machine',
  ],
};
let dir: string;
let core: Core;
const embedCalls: { role: string; texts: string[] }[] = [];
const scoreCalls: { instruction: string; pairs: number }[] = [];
let onScore: (() => void) | null = null;

/** The real embedder, recording every call's texts. */
function recordingEmbedder(inner: Embedder): Embedder {
  return {
    id: inner.id,
    engine: inner.engine,
    dim: inner.dim,
    embed: (texts, options) => {
      embedCalls.push({ role: options.role, texts: [...texts] });
      return inner.embed(texts, options);
    },
    dispose: () => inner.dispose?.() ?? Promise.resolve(),
  };
}

function recordingEncoder(inner: CrossEncoder): CrossEncoder {
  return {
    id: inner.id,
    engine: inner.engine,
    score: (pairs, options) => {
      scoreCalls.push({ instruction: options.instruction, pairs: pairs.length });
      onScore?.();
      return inner.score(pairs, options);
    },
    dispose: () => inner.dispose?.() ?? Promise.resolve(),
  };
}

function skillSideRows(kind: string): { skill_id: number; text_hash: string; updated_at: string }[] {
  const db = new Database(path.join(dir, 'data', 'library.db'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT skill_id, text_hash, updated_at FROM skill_side_vectors WHERE kind = ? ORDER BY skill_id',
      )
      .all(kind) as { skill_id: number; text_hash: string; updated_at: string }[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-presets-'));
  writeTinyQwen3(path.join(dir, 'embedder'), { head: 'base', hidden: 32, seed: 3, dtypes: ['fp32'] });
  writeTinyQwen3(path.join(dir, 'reranker'), { head: 'lm', hidden: 16, seed: 4, dtypes: ['fp32'] });
  const onnx = createOnnxEngineFactory({ spawn: forkModelWorker(), cacheDir: path.join(dir, 'cache') });
  const recording: EngineFactory = {
    embedder: async (s) => recordingEmbedder(await onnx.embedder(s)),
    crossEncoder: async (s) => recordingEncoder(await onnx.crossEncoder(s)),
    describe: onnx.describe?.bind(onnx),
    verify: onnx.verify?.bind(onnx),
    dispose: onnx.dispose?.bind(onnx),
  };
  core = createCore({
    dataDir: path.join(dir, 'data'),
    resourcesDir: resources,
    engineFactories: { onnx: recording },
  });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  for (const role of ['embedder', 'reranker'] as const) {
    const report = await core['models.add']({
      role,
      path: path.join(dir, role),
      dtype: 'fp32',
      device: 'cpu',
    });
    expect(report.ok).toBe(true);
  }
}, 180_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('selection presets on the ONNX engines', () => {
  it('estimates a fast selection before the index holds the skill side, and names the embedder', async () => {
    const estimate = await core['select.estimate']({ task, preset: 'fast', parse, recallK: 5 });
    expect(estimate.preset).toBe('fast');
    expect(estimate.engines.map((e) => [e.tier, e.engine])).toEqual([['embedder', 'embedder']]);
    // relevance 5 + alignment 2 * 5 * 3 + stage fit 5 * 3
    expect(estimate.pairs).toBe(50);
    expect(estimate.seconds).toBeGreaterThan(0);
    expect(estimate.notes.join(' ')).toMatch(/skill side of 0 %/);
    const exact = await core['select.estimate']({ task, preset: 'exact', parse, recallK: 5 });
    expect(exact.engines.map((e) => e.tier)).toEqual(['cross-encoder']);
    expect(exact.tokens).toBeGreaterThan(estimate.tokens);
  }, 60_000);

  it('builds the index with the skill side: every document and completion, the preconditions that exist', async () => {
    const mugSkill = await core['library.get']({ name: 'household-heat-object-microwave' });
    await core['states.edit']({
      skillId: mugSkill.id,
      precondition: 'The agent holds an object that must be heated',
      completion: 'The object is hot',
    });
    embedCalls.length = 0;
    const job = await core['index.build']({});
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    const status = await core['index.status']({});
    expect(status.skillSide).toEqual({ current: status.skills, skills: status.skills });
    expect(skillSideRows('document')).toHaveLength(status.skills);
    expect(skillSideRows('completion')).toHaveLength(status.skills);
    expect(skillSideRows('precondition').map((r) => r.skill_id)).toEqual([mugSkill.id]);
    const documents = embedCalls.filter((c) => c.role === 'document').flatMap((c) => c.texts);
    expect(documents).toContain(skillDocument(mugSkill));
    expect(documents).toContain('The object is hot');
  }, 180_000);

  it('selects with the fast preset embedding only the task side, and records preset, scorers and calibration', async () => {
    embedCalls.length = 0;
    scoreCalls.length = 0;
    const r = await core['select.run']({ task, variant: 'full', preset: 'fast', parse, recallK: 5 });
    expect(embedCalls.every((c) => c.role === 'query')).toBe(true);
    const taskSide = new Set([task, ...parse.states, ...parse.subtasks, parse.subtasks.join(' ')]);
    const embedded = embedCalls.flatMap((c) => c.texts);
    expect(embedded.length).toBeGreaterThan(0);
    for (const text of embedded) expect(taskSide.has(text)).toBe(true);
    expect(scoreCalls).toEqual([]);

    expect(r.trace.preset).toBe('fast');
    for (const use of ['align', 'relevance', 'stage-fit'] as const) {
      expect(r.trace.scorers![use]).toMatchObject({
        tier: 'embedder',
        engine: 'embedder',
        instruction: `embed-${use}/1`,
        calibration: { scale: 10, center: 0.5, source: 'generic default' },
      });
      expect(r.trace.instructions[use]).toBe(`embed-${use}/1`);
    }
    expect(renderTrace(r.trace)).toContain(
      'Preset: fast · align embedder embedder (r = 10·(cos − 0.5), generic default)',
    );
    const c = r.trace.candidates[0]!;
    const cos = c.rho! / 10 + 0.5;
    expect(cos).toBeGreaterThanOrEqual(-1 - 1e-6);
    expect(cos).toBeLessThanOrEqual(1 + 1e-6);
    expect(r.answer.length).toBeGreaterThanOrEqual(1);
    // The estimate bounds what the selection needed, and the engine is now timed on this machine.
    const estimate = await core['select.estimate']({ task, preset: 'fast', parse, recallK: 5 });
    expect(estimate.pairs).toBeGreaterThanOrEqual(r.trace.counts.pairs);
    expect(estimate.engines[0]!.measured).toBe(true);
    expect(estimate.notes.join(' ')).not.toMatch(/skill side of/);
  }, 120_000);

  it('re-embeds only the edited skill’s states after a state edit', async () => {
    const skill = await core['library.get']({ name: 'household-make-coffee' });
    const before = skillSideRows('document');
    embedCalls.length = 0;
    await core['states.edit']({
      skillId: skill.id,
      precondition: 'The agent holds a hot mug',
      completion: 'The mug is in the coffee machine',
    });
    // The selection waits for the refresh the edit queued.
    await core['select.run']({ task, variant: 'full', preset: 'fast', parse, recallK: 5 });
    const documents = embedCalls.filter((c) => c.role === 'document').flatMap((c) => c.texts);
    expect(documents.sort()).toEqual(['The agent holds a hot mug', 'The mug is in the coffee machine']);
    expect(skillSideRows('document')).toEqual(before);
  }, 120_000);

  it('mixes the embedder for alignment with the cross-encoder for relevance and stage fit', async () => {
    scoreCalls.length = 0;
    const r = await core['select.run']({ task, variant: 'full', preset: 'mixed', parse, recallK: 5 });
    expect(r.trace.scorers!.align.tier).toBe('embedder');
    expect(r.trace.scorers!.relevance).toMatchObject({ tier: 'cross-encoder', engine: 'reranker' });
    expect(r.trace.scorers!['stage-fit'].tier).toBe('cross-encoder');
    expect(r.trace.models.crossEncoder).toBe('reranker');
    expect(scoreCalls.length).toBeGreaterThan(0);
    expect(r.trace.scores.filter((s) => s.use === 'align').every((s) => s.version === 'embed-align/1')).toBe(
      true,
    );
  }, 120_000);

  it('reports progress while an exact selection runs, and cancel stops the scoring', async () => {
    const events: Extract<CuratorEvent, { type: 'select.progress' }>[] = [];
    const off = core.onEvent((e) => {
      if (e.type === 'select.progress') events.push(e);
    });
    try {
      const done = await core['select.run']({
        task: 'heat an apple and put it in the fridge',
        variant: 'full',
        preset: 'exact',
        parse,
        recallK: 6,
        requestId: 'whole',
      });
      const scoring = events.filter((e) => e.requestId === 'whole' && e.total > 0);
      expect(scoring.length).toBeGreaterThan(1);
      expect(scoring.at(-1)!.done).toBe(done.trace.execution.pairsScored);
      for (const e of scoring) expect(e.done).toBeLessThanOrEqual(e.total);

      const runsBefore = (await core['select.runs']({ limit: 1000 })).length;
      scoreCalls.length = 0;
      onScore = () => void core['select.cancel']({ requestId: 'stopped' });
      await expect(
        core['select.run']({
          task: 'wash a plate and put it on the shelf',
          variant: 'full',
          preset: 'exact',
          parse,
          recallK: 6,
          requestId: 'stopped',
        }),
      ).rejects.toMatchObject({ code: 'CANCELLED' });
      // Only the first batch reached the reranker: no alignment or stage-fit pairs after the cancel.
      expect(scoreCalls).toHaveLength(1);
      expect((await core['select.runs']({ limit: 1000 })).length).toBe(runsBefore);
      expect(await core['select.cancel']({ requestId: 'stopped' })).toEqual({ cancelled: false });
    } finally {
      off();
      onScore = null;
    }
  }, 120_000);
});
