// Selection traces are stored packed (migration 061, text-packing.ts): a run saved now is a zlib BLOB that reads back
// as the same trace; traces stored before the migration are packed when the library is opened, and read the same.
// A real core on a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { mugTask } from '../fixtures/mug-task';

const resources = path.resolve('resources');
let dir: string;
let dataDir: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-traces-packed-'));
  dataDir = path.join(dir, 'data');
  core = createCore({ dataDir, resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}, 60_000);

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('selection traces, packed', () => {
  it('are stored as a BLOB and read back whole, before and after the migration', async () => {
    const { task, parse } = mugTask;
    const run = await core['select.run']({ task, variant: 'full', preset: 'offline', parse });
    const db = core.context.db;
    const stored = () =>
      core.context.db
        .prepare('SELECT typeof(trace) AS type, length(trace) AS bytes FROM selection_runs WHERE id = ?')
        .get(run.runId) as { type: string; bytes: number };
    const json = JSON.stringify(run.trace);
    expect(stored().type).toBe('blob');
    expect(stored().bytes).toBeLessThan(json.length / 2);
    const replayed = await core['select.replay']({ runId: run.runId, edits: {} });
    expect(replayed.answer).toEqual(run.answer);
    expect((await core['select.runs']({ limit: 10 })).map((r) => r.runId)).toContain(run.runId);

    // As a library written before migration 061 holds it: plain JSON, and the migration not applied.
    db.prepare('UPDATE selection_runs SET trace = ? WHERE id = ?').run(json, run.runId);
    db.prepare('DELETE FROM schema_migrations WHERE id = 61').run();
    await core.close();
    const plain = new Database(path.join(dataDir, 'library.db'), { readonly: true });
    expect(
      plain.prepare('SELECT typeof(trace) FROM selection_runs WHERE id = ?').pluck().get(run.runId),
    ).toBe('text');
    plain.close();
    core = createCore({ dataDir, resourcesDir: resources });
    expect(stored().type).toBe('blob');
    const again = await core['select.replay']({ runId: run.runId, edits: {} });
    expect(again.trace.candidates.map((c) => c.name)).toEqual(run.trace.candidates.map((c) => c.name));
    expect(again.answer).toEqual(run.answer);
  }, 60_000);
});
