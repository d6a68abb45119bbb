// "No skill fits" is an answer (issue 26): through the core API on the sample library with the offline engine, a task
// no skill serves gets an empty answer with the reason, the best candidate and the threshold in the trace; a replay
// keeps the rule; Settings turn it off per preset (null) or move it; an evaluation counts right and false
// abstentions apart from precision and coverage. Real SQLite, the lexical engines; no timing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import { renderTrace } from '../../src/core/select/render-trace';
import { OFFLINE_ABSTAIN_BELOW } from '../../src/shared/presets';
import { expectTraceFollowsMethod } from '../fixtures/method-oracle';

const resources = path.resolve('resources');
let dir: string;
let core: Core;
const toast = 'write a funny but kind toast for my sister’s wedding reception';
const heat = 'heat a mug of water in the microwave';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-abstain-'));
  core = createCore({ dataDir: dir, resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  await core['states.import']({ path: path.join(resources, 'sample-states.jsonl'), verify: true });
  await core['settings.update']({ patch: { selection: { preset: 'offline' } } });
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('abstaining when no skill fits', () => {
  it('answers nothing for a task no skill serves, and says which candidate came closest', async () => {
    // A parse as an agent would give it, so `full` runs the whole method before the rule is checked.
    const parse = {
      subtasks: ['Write the toast'],
      states: ['There is no toast yet.', 'A funny but kind toast is written.'],
    };
    for (const variant of ['full', 'no-split', 'no-parse'] as const) {
      const r = await core['select.run']({
        task: toast,
        variant,
        ...(variant === 'no-parse' ? {} : { parse }),
      });
      const a = r.trace.abstention!;
      expect(a).toMatchObject({ threshold: OFFLINE_ABSTAIN_BELOW, abstained: true });
      expect(a.bestRho!).toBeLessThan(OFFLINE_ABSTAIN_BELOW);
      expect(a.wouldAnswer.length).toBeGreaterThan(0);
      expect(r.trace.answer).toEqual([]);
      // One step: the stage is the task, so only rho decides.
      const fit = a.bestStageFit;
      expect(fit).toBeUndefined();
      expect(r.trace.reason).toBe(
        `No skill fits: the best candidate, ${a.best}, has ρ ${a.bestRho!.toFixed(2)}${fit === undefined ? '' : ` and the best stage fit is ${fit.toFixed(2)}`}, below the abstain threshold ${OFFLINE_ABSTAIN_BELOW}`,
      );
      if (variant === 'full') expectTraceFollowsMethod(r.trace);
      // The CLI's rendering says it and how to turn it off.
      expect(renderTrace(r.trace)).toContain(
        `${r.trace.reason}; without it: ${a.wouldAnswer.join(', ')} (settings set selection.abstainBelow.offline=null always answers)`,
      );
    }
    // The dense baseline ranks by the recall's score and never abstains.
    expect((await core['select.run']({ task: toast, variant: 'dense' })).trace.answer.length).toBeGreaterThan(
      0,
    );
  });

  it('still answers a task the library serves', async () => {
    const r = await core['select.run']({ task: heat, variant: 'full' });
    expect(r.trace.abstention).toMatchObject({ abstained: false });
    expect(r.trace.answer.map((x) => x.name)).toContain('household-heat-object-microwave');
  });

  it('answers a long task of several steps whose skills fit their stages, though its rho is low', async () => {
    // sh-04 names two products, options, a cart and a coupon: no one skill matches much of it (rho −1.26), but each
    // stage's skill fits its stage.
    const line = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8')
      .split('\n')
      .find((l) => l.includes('"sh-04"'))!;
    const { task, parse } = JSON.parse(line) as {
      task: string;
      parse: { subtasks: string[]; states: string[] };
    };
    const r = await core['select.run']({ task, parse, variant: 'full' });
    const a = r.trace.abstention!;
    expect(a.bestRho!).toBeLessThan(OFFLINE_ABSTAIN_BELOW);
    expect(a.bestStageFit!).toBeGreaterThanOrEqual(OFFLINE_ABSTAIN_BELOW);
    expect(a.abstained).toBe(false);
    expect(r.trace.answer.map((x) => x.name)).toContain('shop-checkout');
  });

  it('keeps the rule in a replay of the run', async () => {
    const r = await core['select.run']({ task: toast, variant: 'no-parse' });
    const replayed = await core['select.replay']({ runId: r.runId!, edits: {} });
    expect(replayed.trace.options.abstainBelow).toBe(OFFLINE_ABSTAIN_BELOW);
    expect(replayed.trace.answer).toEqual([]);
  });

  it('is off when the preset’s threshold is null, and moves with the setting', async () => {
    await core['settings.update']({
      patch: { selection: { abstainBelow: { exact: null, fast: null, mixed: null, offline: null } } },
    });
    const off = await core['select.run']({ task: toast, variant: 'full' });
    expect(off.trace.abstention).toBeUndefined();
    expect(off.trace.answer.length).toBeGreaterThan(0);
    // Above every rho: even the served task abstains.
    await core['settings.update']({
      patch: { selection: { abstainBelow: { exact: null, fast: null, mixed: null, offline: 40 } } },
    });
    expect((await core['select.run']({ task: heat, variant: 'full' })).trace.answer).toEqual([]);
    await core['settings.update']({
      patch: {
        selection: { abstainBelow: { exact: null, fast: null, mixed: null, offline: OFFLINE_ABSTAIN_BELOW } },
      },
    });
  });

  it('counts right and false abstentions in an evaluation, apart from precision and coverage', async () => {
    const file = path.join(dir, 'mixed.jsonl');
    writeFileSync(
      file,
      [
        { id: 'served', task: heat, gold: ['household-heat-object-microwave'] },
        { id: 'none', task: toast, gold: [] },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const set = await core['labels.import']({ path: file });
    const job = await core['eval.run']({ setId: set.id, variants: ['no-parse'], k: [1] });
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    const report = (await core['eval.list']({}))[0]!;
    const shown = await core['eval.show']({ runId: report.runId });
    const summary = shown.summary.find((s) => s.variant === 'no-parse')!;
    expect(summary).toMatchObject({
      tasks: 2,
      noFitTasks: 1,
      abstainedOnNoFit: 1,
      falseAbstentions: 0,
      precision: 1,
      hitAt1: 1,
    });
    expect(shown.recallAtK).toBe(1);
  });
});
