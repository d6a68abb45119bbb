// "Re-run and compare with the last run" through the core API on a fresh data folder: the job's result names the run
// to compare with, the comparison lists the skills a curator edited in between, and exports go to a file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

const resources = path.resolve('resources');
let dir: string;
let core: Core;
let setId: number;

const skillId = async (name: string) => (await core['library.get']({ name })).id;
const finished = async (id: string) => {
  const done = await core['jobs.wait']({ id });
  expect(done.status).toBe('done');
  return done.result as { runId: number; baseRunId: number | null };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-eval-compare-'));
  core = createCore({ dataDir: dir, resourcesDir: resources });
  const job = await core['jobs.wait']({
    id: (await core['library.import']({ path: path.join(resources, 'sample-library') })).id,
  });
  expect(job.status).toBe('done');
  await core['states.import']({ path: path.join(resources, 'sample-states.jsonl') });
  const tasks = path.join(dir, 'two-tasks.jsonl');
  writeFileSync(
    tasks,
    readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n'),
  );
  setId = (await core['labels.import']({ path: tasks })).id;
});

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('re-run and compare through the API', () => {
  it('a set without a finished run has nothing to re-run', async () => {
    await expect(core['eval.rerun']({ setId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('re-runs the last run after two state edits and lists them with the changed tasks', async () => {
    const first = await finished(
      (await core['eval.run']({ setId, variants: ['full', 'no-parse'], k: [1] })).id,
    );
    expect(first.baseRunId).toBeNull();
    const library = (await core['eval.library']({ runId: first.runId }))!;
    expect(library.skillCount).toBe((await core['library.stats']({})).skills);
    expect(library.settings).toMatchObject({ recallK: 30 });

    await core['states.edit']({
      skillId: await skillId('household-make-coffee'),
      precondition: 'The hot mug is in the coffee machine.',
      completion: 'The mug is full of coffee and the coffee machine is off.',
    });
    await core['states.edit']({
      skillId: await skillId('household-heat-object-microwave'),
      // States that fit no household task: the stages this skill won go to another skill.
      precondition: 'The robot stands in the garden next to the hose.',
      completion: 'The garden is watered and the hose is off.',
    });
    const second = await finished((await core['eval.rerun']({ setId })).id);
    expect(second.baseRunId).toBe(first.runId);
    expect((await core['eval.show']({ runId: second.runId })).summary.map((s) => s.variant)).toEqual([
      'full',
      'no-parse',
    ]);
    const c = await core['eval.compare']({ runId: second.runId });
    expect(c.baseRunId).toBe(first.runId);
    expect(c.editedSkills.map((s) => s.name).sort()).toEqual([
      'household-heat-object-microwave',
      'household-make-coffee',
    ]);
    // The changed tasks are exactly those whose answers differ between the two runs' own reports (states move edges
    // and splits; the stage winners may stay, so which tasks change depends on the scorer).
    const answers = async (runId: number) =>
      new Map(
        (await core['eval.show']({ runId })).tasks.map((t) => [
          `${t.itemId}|${t.variant}|${t.k ?? ''}`,
          t.answer.join(','),
        ]),
      );
    const [before, after] = [await answers(first.runId), await answers(second.runId)];
    const differing = new Set(
      [...after].filter(([key, answer]) => before.get(key) !== answer).map(([key]) => key.split('|')[0]),
    );
    expect(new Set(c.changedTasks.map((t) => t.itemId))).toEqual(differing);
  });

  it('writes exports to the given path and refuses a path it cannot write', async () => {
    const runId = (await core['eval.list']({}))[0]!.runId;
    const out = path.join(dir, 'report.csv');
    const written = await core['eval.export']({ runId, format: 'csv', path: out });
    expect(written.path).toBe(out);
    expect(readFileSync(out, 'utf8')).toBe(written.content);
    expect(written.content.split('\r\n')[0]).toMatch(/^item,task,variant/);
    const plain = await core['eval.export']({ runId, format: 'markdown' });
    expect(plain.fileName).toBe(`evaluation-${runId}.md`);
    await expect(
      core['eval.export']({ runId, format: 'json', path: path.join(dir, 'missing', 'x.json') }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // An existing file is replaced only when asked (the desktop's save dialog asks the user first).
    await expect(core['eval.export']({ runId, format: 'csv', path: out })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await core['eval.export']({ runId, format: 'csv', path: out, overwrite: true })).path).toBe(out);
  });
});
