// An evaluation scores with the preset it is asked for, not whatever the Settings say while it runs, and `eval rerun`
// repeats the preset of the run it compares with, so a regression check never compares two scorers by accident.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

const resources = path.resolve('resources');
let dir: string;
let core: Core;
let setId: number;

const finishedRun = async (id: string) => {
  const done = await core['jobs.wait']({ id });
  expect(done.status).toBe('done');
  return (done.result as { runId: number }).runId;
};
const presetOf = async (runId: number) => (await core['eval.library']({ runId }))!.engines.preset;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-eval-preset-'));
  core = createCore({ dataDir: dir, resourcesDir: resources });
  const job = await core['jobs.wait']({
    id: (await core['library.import']({ path: path.join(resources, 'sample-library') })).id,
  });
  expect(job.status).toBe('done');
  const tasks = path.join(dir, 'one-task.jsonl');
  writeFileSync(tasks, readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8').split('\n')[0]!);
  setId = (await core['labels.import']({ path: tasks })).id;
  await core['settings.update']({ patch: { selection: { preset: 'exact' } } });
});

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the preset of an evaluation', () => {
  it('runs with the preset asked for, and records it with the run', async () => {
    const runId = await finishedRun(
      (await core['eval.run']({ setId, variants: ['full'], k: [1], preset: 'offline' })).id,
    );
    expect(await presetOf(runId)).toBe('offline');
    expect((await core['eval.library']({ runId }))!.settings).toMatchObject({ preset: 'offline' });
  });

  it('uses the Settings preset when none is asked for', async () => {
    const runId = await finishedRun((await core['eval.run']({ setId, variants: ['full'], k: [1] })).id);
    expect(await presetOf(runId)).toBe('exact');
  });

  it('repeats the compared run preset on rerun, whatever the Settings say now', async () => {
    await finishedRun((await core['eval.run']({ setId, variants: ['full'], k: [1], preset: 'offline' })).id);
    await core['settings.update']({ patch: { selection: { preset: 'fast' } } });
    const rerun = await finishedRun((await core['eval.rerun']({ setId })).id);
    expect(await presetOf(rerun)).toBe('offline');
  });

  it('refuses a preset that does not exist', async () => {
    await expect(
      core['eval.run']({ setId, variants: ['full'], preset: 'quick' as never }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
