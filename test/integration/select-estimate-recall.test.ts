// The cost estimate counts the candidates a lexical recall returns (issue 10, item 4): it returns only the skills that
// share a term with the task, often fewer than K, and the estimate of a whole K = 30 selection was 36 % too high in
// pairs for that alone (bench/selection-estimate.ts). It also counts only what will run: no stage pairs for a task with
// no parse and no LLM to make one, the parse a label set gives the task, and an llm variant that cannot run (which a
// comparison then leaves out instead of failing). A parse given with blank states is refused. Real core, real SQLite
// library with the sample skills.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import { mugTask } from '../fixtures/mug-task';

const resources = path.resolve('resources');
const { task, parse } = mugTask;
let dir: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-estimate-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}, 60_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('select.estimate with a lexical recall', () => {
  it('bounds the pairs by the candidates the recall returns, not by K', async () => {
    const skills = (await core['library.list']({})).total;
    const run = await core['select.run']({ task, variant: 'full', preset: 'offline', parse, recallK: 30 });
    const candidates = run.trace.candidates.length;
    expect(candidates).toBeLessThan(Math.min(30, skills));
    const estimate = await core['select.estimate']({ task, preset: 'offline', parse, recallK: 30 });
    expect(estimate.candidates).toBe(candidates);
    // relevance K + alignment 2K(n - 1) + stage fit K per sub-task, with K = the recalled candidates
    expect(estimate.pairs).toBe(candidates + 2 * candidates * 2 + candidates * 2);
    expect(estimate.pairs).toBeGreaterThanOrEqual(run.trace.counts.pairs);
  }, 60_000);

  it('counts relevance pairs only when the task has no parse and no LLM can make one, and says so', async () => {
    const unparsed = 'warm a plate of soup for dinner';
    const estimate = await core['select.estimate']({ task: unparsed, preset: 'offline', recallK: 30 });
    expect(estimate.states).toBe(0);
    expect(estimate.pairs).toBe(estimate.candidates);
    expect(estimate.notes.join(' ')).toMatch(/no parse and no LLM is set up/);
    const run = await core['select.run']({ task: unparsed, variant: 'full', preset: 'offline', recallK: 30 });
    expect(run.trace.parse).toBeNull();
    expect(run.trace.counts.pairs).toBe(estimate.pairs);
  }, 60_000);

  it('finds the parse a label set gives the task, in the estimate and in the selection', async () => {
    const labels = path.join(dir, 'labels.jsonl');
    writeFileSync(
      labels,
      JSON.stringify({ id: 'mug', task, gold: ['household-heat-object-microwave'], parse }) + '\n',
    );
    await core['labels.import']({ path: labels, name: 'mug labels' });
    const estimate = await core['select.estimate']({ task, preset: 'offline', recallK: 30 });
    expect(estimate.states).toBe(parse.states.length);
    expect(estimate.notes.join(' ')).not.toMatch(/not parsed yet|no parse/);
    const run = await core['select.run']({ task, variant: 'full', preset: 'offline', recallK: 30 });
    expect(run.trace.parse).toMatchObject({ states: parse.states, subtasks: parse.subtasks });
    // The same answer as with the parse given by hand.
    const given = await core['select.run']({ task, variant: 'full', preset: 'offline', parse, recallK: 30 });
    expect(run.trace.answer.map((a) => a.name)).toEqual(given.trace.answer.map((a) => a.name));
  }, 60_000);

  it('runs a comparison without an LLM, the llm variant saying why it did not run and storing nothing', async () => {
    const runsBefore = (await core['select.runs']({ limit: 1000 })).length;
    const estimate = await core['select.estimate']({
      task,
      preset: 'offline',
      parse,
      variants: ['full', 'dense', 'llm'],
    });
    expect(estimate.notes.join(' ')).toMatch(/llm variant needs an LLM endpoint and none is set up/);
    const results = await core['select.compare']({
      task,
      preset: 'offline',
      parse,
      variants: ['full', 'dense', 'llm'],
    });
    expect(results.map((r) => r.variant)).toEqual(['full', 'dense', 'llm']);
    expect(results[0]!.answer.length).toBeGreaterThan(0);
    expect(results[1]!.answer.length).toBeGreaterThan(0);
    expect(results[2]!.answer).toEqual([]);
    expect(results[2]!.trace.reason).toMatch(/needs an LLM endpoint: set one up in Settings → LLM endpoint/);
    expect((await core['select.runs']({ limit: 1000 })).length).toBe(runsBefore + 2);
    // Asked for alone, it is an error that names what is missing.
    await expect(
      core['select.run']({ task, preset: 'offline', parse, variant: 'llm' }),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/LLM endpoint/),
    });
  }, 60_000);

  it('refuses a given parse with a blank state or sub-task, naming it, and stores no run', async () => {
    const runsBefore = (await core['select.runs']({ limit: 1000 })).length;
    const blankState = { subtasks: parse.subtasks, states: parse.states.map((s, i) => (i === 1 ? '  ' : s)) };
    await expect(
      core['select.compare']({ task, preset: 'offline', parse: blankState, variants: ['full'] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'State s1 of the parse is empty: write it, or clear the parse to run without one',
    });
    const blankStep = { subtasks: parse.subtasks.map((s, i) => (i === 0 ? '' : s)), states: parse.states };
    await expect(core['select.run']({ task, preset: 'offline', parse: blankStep })).rejects.toMatchObject({
      message: expect.stringMatching(/^Sub-task t0 of the parse is empty/),
    });
    expect((await core['select.runs']({ limit: 1000 })).length).toBe(runsBefore);
  });

  it('refuses a given parse whose counts or lengths are wrong, saying what to give instead', async () => {
    const runsBefore = (await core['select.runs']({ limit: 1000 })).length;
    const three = {
      subtasks: ['find the mug', 'heat the mug', 'use the coffee machine'],
      states: ['a', 'b', 'c'],
    };
    await expect(core['select.run']({ task, preset: 'offline', parse: three })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message:
        'The parse has 3 sub-tasks and 3 states: give 4 states (s0 before the first sub-task, then one after ' +
        'each sub-task), or 2 sub-tasks for these states',
    });
    const long = { subtasks: ['x'.repeat(1001)], states: ['a', 'b'] };
    await expect(core['select.run']({ task, preset: 'offline', parse: long })).rejects.toMatchObject({
      message: 'Sub-task t0 of the parse is 1,001 characters; keep each sub-task and state under 1,000',
    });
    const many = { subtasks: Array.from({ length: 21 }, (_, i) => `step ${i}`), states: Array(22).fill('s') };
    await expect(core['select.run']({ task, preset: 'offline', parse: many })).rejects.toMatchObject({
      message: expect.stringMatching(/^The parse has 21 sub-tasks; give at most 20/),
    });
    expect((await core['select.runs']({ limit: 1000 })).length).toBe(runsBefore);
  });
});
