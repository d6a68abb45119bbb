// The job runner: durable rows, progress, cancel, and resume after a crash (a new runner on the same file).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../src/shared/jobs';
import type { JobContext } from '../../src/core/jobs/job-runner';
import { JobRunner } from '../../src/core/jobs/job-runner';
import type { Db } from '../../src/core/store/db';
import { openDb } from '../../src/core/store/db';

let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-jobs-'));
  file = path.join(dir, 'library.db');
  db = openDb(file);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A job over ten items that records each one, and can be told to stop after some. */
function countingJob(processed: string[], stopAfter?: { n: number; then: () => void }) {
  return async (params: { items: number }, ctx: JobContext) => {
    for (let i = 0; i < params.items; i++) {
      const key = `item-${i}`;
      if (ctx.isItemDone(key)) continue;
      if (ctx.signal.aborted) throw Object.assign(new Error('Cancelled'), { name: 'AbortError' });
      processed.push(key);
      ctx.markItem(key, 'done');
      ctx.report({ done: i + 1, total: params.items });
      if (stopAfter && processed.length === stopAfter.n) stopAfter.then();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { processed: processed.length };
  };
}

describe('job runner', () => {
  it('runs a job to done with its result and progress events', async () => {
    const updates: JobInfo[] = [];
    const runner = new JobRunner(db, {
      clock: () => new Date(),
      onUpdate: (j) => updates.push(j),
      throttleMs: 0,
    });
    const processed: string[] = [];
    runner.register('count', countingJob(processed));
    const job = runner.start('count', { items: 10 });
    const final = await runner.wait(job.id);
    expect(final.status).toBe('done');
    expect(final.result).toEqual({ processed: 10 });
    expect(final.progress).toMatchObject({ done: 10, total: 10 });
    expect(updates.at(-1)?.status).toBe('done');
    expect(updates.some((u) => u.status === 'running' && u.progress.done > 0)).toBe(true);
    expect(runner.list()[0]?.id).toBe(job.id);
  });

  it('cancels a running job and resumes it without redoing finished items', async () => {
    const runner = new JobRunner(db, { clock: () => new Date(), onUpdate: () => {} });
    const processed: string[] = [];
    let id = '';
    runner.register('count', countingJob(processed, { n: 4, then: () => runner.cancel(id) }));
    id = runner.start('count', { items: 10 }).id;
    const cancelled = await runner.wait(id);
    expect(cancelled.status).toBe('cancelled');
    expect(processed).toHaveLength(4);

    runner.register('count', countingJob(processed));
    runner.resume(id);
    const final = await runner.wait(id);
    expect(final.status).toBe('done');
    expect(processed).toEqual(Array.from({ length: 10 }, (_, i) => `item-${i}`));
  });

  // A job whose process died is marked interrupted and resumed: test/integration/job-owner.test.ts kills a real one.

  it('records a failing job as failed with error data', async () => {
    const runner = new JobRunner(db, { clock: () => new Date(), onUpdate: () => {} });
    runner.register('broken', async () => {
      throw new Error('disk on fire');
    });
    const final = await runner.wait(runner.start('broken', {}).id);
    expect(final.status).toBe('failed');
    expect(final.error).toEqual({ code: 'INTERNAL', message: 'disk on fire' });
    expect(() => runner.start('nope', {})).toThrow(/No job kind/);
  });
});
