// Two processes on one library: a job is marked interrupted only when its owner is gone (process dead or heartbeat
// stale), a live job in another process cannot be resumed a second time, and a second writer does not make the
// first one's write transactions fail with SQLITE_BUSY.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRunner, type JobContext } from '../../src/core/jobs/job-runner';
import { importSource } from '../../src/core/skills/index';
import { removeSource } from '../../src/core/skills/remove-source';
import { editStates } from '../../src/core/states/skill-states';
import { openDb, type Db } from '../../src/core/store/db';
import { spawnTs, type Child } from '../fixtures/jobs/child-process';
import { skillMd, testJob, writeSkill } from '../fixtures/skills/library-fixture';

let dir: string;
let file: string;
let db: Db;
const children: Child[] = [];
const runners: JobRunner[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-owner-'));
  file = path.join(dir, 'library.db');
  db = openDb(file);
});

afterEach(async () => {
  for (const c of children.splice(0))
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  for (const r of runners.splice(0)) await r.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function jobChild(items: number, pauseAt: number, heartbeatMs: number, resumeId?: string): Child {
  const args = [file, String(items), String(pauseAt), String(heartbeatMs)];
  const child = spawnTs('test/fixtures/jobs/job-child.ts', resumeId ? [...args, 'resume', resumeId] : args);
  children.push(child);
  return child;
}

function runner(options: { staleMs?: number } = {}): JobRunner {
  const r = new JobRunner(db, { clock: () => new Date(), onUpdate: () => {}, ...options });
  runners.push(r);
  return r;
}

/** Item keys the job recorded, in the order written (a key run twice would show twice in `ran` counts). */
function countingHandler(ran: string[]) {
  return async (params: { items: number }, ctx: JobContext) => {
    for (let i = 0; i < params.items; i++) {
      const key = `item-${i}`;
      if (ctx.isItemDone(key)) continue;
      ctx.markItem(key, 'done');
      ran.push(key);
      ctx.report({ done: i + 1, total: params.items });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { ran: ran.length };
  };
}

describe('jobs shared by two processes', () => {
  it('leaves a job that a live process runs alone, and refuses to resume it a second time', async () => {
    const child = jobChild(10, 4, 200);
    const id = (await child.waitFor(/job (\S+)/))[1]!;
    await child.waitFor(/paused/);

    const cli = runner();
    cli.register('count', countingHandler([]));
    expect(cli.list().find((j) => j.id === id)?.status).toBe('running');
    expect(cli.get(id).status).toBe('running');
    let refused: unknown;
    try {
      cli.resume(id);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(String((refused as Error).message)).toContain(`process ${child.proc.pid}`);
    expect(() => cli.cancel(id)).toThrow(/runs in another process/);
    expect(db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(id)).toBe('running');
  });

  it('marks the job interrupted once its owner is killed, and a resume runs only the items left', async () => {
    const child = jobChild(10, 4, 200);
    const id = (await child.waitFor(/job (\S+)/))[1]!;
    await child.waitFor(/paused/);
    child.proc.kill('SIGKILL');
    await child.exited;

    const cli = runner();
    const ran: string[] = [];
    cli.register('count', countingHandler(ran));
    expect(cli.get(id).status).toBe('interrupted');
    cli.resume(id);
    const final = await cli.wait(id);
    expect(final.status).toBe('done');
    expect(ran).toEqual(['item-4', 'item-5', 'item-6', 'item-7', 'item-8', 'item-9']);
    const done = db
      .prepare("SELECT COUNT(*) FROM job_items WHERE job_id = ? AND status = 'done'")
      .pluck()
      .get(id);
    expect(done).toBe(10);
  });

  it('treats a live owner whose heartbeat stopped as gone', async () => {
    // The child's heartbeat is an hour apart, so once it pauses its row goes quiet although the process lives.
    const child = jobChild(10, 4, 3_600_000);
    const id = (await child.waitFor(/job (\S+)/))[1]!;
    await child.waitFor(/paused/);
    const fresh = runner({ staleMs: 60_000 });
    expect(fresh.get(id).status).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const impatient = runner({ staleMs: 300 });
    expect(impatient.get(id).status).toBe('interrupted');
  });

  it('a job resumed in one process is refused in a third', async () => {
    const first = jobChild(10, 3, 200);
    const id = (await first.waitFor(/job (\S+)/))[1]!;
    await first.waitFor(/paused/);
    first.proc.kill('SIGKILL');
    await first.exited;
    const second = jobChild(10, 6, 200, id);
    await second.waitFor(/paused/);
    const third = runner();
    third.register('count', countingHandler([]));
    expect(() => third.resume(id)).toThrow(/still running in process/);
    second.proc.kill('SIGKILL');
  });
});

describe('a second writer', () => {
  it('makes the first wait for the write lock instead of failing with SQLITE_BUSY', async () => {
    const root = path.join(dir, 'src');
    for (let i = 0; i < 3; i++) writeSkill(root, `skill-${i}`, skillMd(`skill-${i}`, `Skill ${i}.`));
    const deps = { db, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } };
    const report = await importSource(deps, { path: root }, testJob());
    const skillId = db.prepare("SELECT id FROM skills WHERE name = 'skill-0'").pluck().get() as number;

    // The CLI writes while the app holds the lock: a curator's edit (read, then write) must wait, not fail.
    const lock = spawnTs('test/fixtures/jobs/lock-child.ts', [file, '1000']);
    children.push(lock);
    await lock.waitFor(/locked/);
    const edited = editStates(db, () => new Date(), skillId, { completion: 'The report is written.' });
    expect(edited).toMatchObject({ status: 'edited', completion: 'The report is written.' });

    const again = spawnTs('test/fixtures/jobs/lock-child.ts', [file, '1000']);
    children.push(again);
    await again.waitFor(/locked/);
    expect(removeSource(deps, report.sourceId).removed).toHaveLength(3);
    expect(db.prepare('SELECT COUNT(*) FROM skills').pluck().get()).toBe(0);
    expect((await lock.exited).code).toBe(0);
    expect((await again.exited).code).toBe(0);
  });
});
