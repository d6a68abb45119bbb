// The cost estimate counts the candidates a lexical recall returns (issue 10, item 4): it returns only the skills that
// share a term with the task, often fewer than K, and the estimate of a whole K = 30 selection was 36 % too high in
// pairs for that alone (bench/selection-estimate.ts). Real core, real SQLite library with the sample skills.
import { mkdtempSync, rmSync } from 'node:fs';
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
});
