// Hostile sources imported through the real HTTP host: FIFOs must not stop it answering (each one used to hold a thread
// of the libuv pool in open() for ever, and four of them starved every later file operation), and a walk that would never
// end is bounded by the setting and can be cancelled. Assertions are on order and outcome, never on time.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import type { JobInfo } from '../../src/shared/jobs';
import type { ImportReport } from '../../src/shared/api';
import type { HttpHost } from '../../src/server/http-host';
import { startHttpHost } from '../../src/server/http-host';
import { mkfifo, releaseFifo, symlinkChain } from '../fixtures/skills/hostile-tree';
import { skillMd, writeSkill } from '../fixtures/skills/library-fixture';

let dir: string;
let core: Core;
let host: HttpHost;
const fifos: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-walk-host-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core });
});

afterAll(async () => {
  fifos.forEach(releaseFifo); // the starting code is still waiting in open() on these
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call<T>(method: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${host.url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const waitJob = async (id: string) => (await call<JobInfo>('jobs.wait', { id })).body;

describe('class: non-regular files, through the HTTP host', () => {
  it('keeps answering while four FIFO sources are imported, and refuses each one by name', async () => {
    // Names without .zip/.jsonl: the starting code opened these to sniff their kind, and waited there.
    const pipes = ['pipe', 'SKILL.md', 'notes.md', 'dump'].map((n) =>
      mkfifo(path.join(dir, `fifo-${fifos.length}`, n)),
    );
    fifos.push(...pipes);
    const fifoAnswers = await Promise.all(
      pipes.map((p) => call<{ code?: string; message?: string; id?: string }>('library.import', { path: p })),
    );
    // Every later call needs the file system; with the pool starved it would never be answered.
    const src = path.join(dir, 'src');
    writeSkill(src, 'fine-skill', skillMd('fine-skill', 'Imported while FIFOs are about.'));
    writeSkill(src, 'piped', skillMd('piped', 'Holds a FIFO.'));
    fifos.push(mkfifo(path.join(src, 'piped/references/pipe.md')));
    const started = await call<JobInfo>('library.import', { path: src });
    expect(started.status).toBe(200);
    const job = await waitJob(started.body.id);
    expect(job.status).toBe('done');
    const report = job.result as ImportReport;
    expect(report.added.map((a) => a.name)).toEqual(['fine-skill']);
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'piped',
        issues: [expect.objectContaining({ rule: 'not-a-regular-file', file: 'piped/references/pipe.md' })],
      }),
    ]);
    expect((await call('settings.get', {})).status).toBe(200);

    for (const answer of fifoAnswers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('FIFO'),
      });
    }
  }, 30_000);
});

describe('class: non-regular files given as a states file', () => {
  it('refuses a FIFO as a states file instead of waiting for a writer', async () => {
    const pipe = mkfifo(path.join(dir, 'states-fifo', 'states.jsonl'));
    fifos.push(pipe);
    const answer = await call<{ code: string; message: string }>('states.import', { path: pipe });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('FIFO') });
  }, 20_000);
});

describe('class: walks that never end, through the HTTP host', () => {
  const chainSource = () => {
    const src = path.join(dir, 'chained');
    writeSkill(src, 'a-good', skillMd('a-good', 'Read before the chain.'));
    writeSkill(src, 'm-chain', skillMd('m-chain', 'Sits on 2^24 ways down.'));
    symlinkChain(path.join(src, 'm-chain/references'), 24);
    return src;
  };

  it('bounds the walk by import.folderMaxVisits from the settings', async () => {
    const src = chainSource();
    await call('settings.update', { patch: { import: { folderMaxVisits: 300 } } });
    const started = await call<JobInfo>('library.import', { path: src });
    const job = await waitJob(started.body.id);
    expect(job.status).toBe('done');
    const report = job.result as ImportReport;
    expect(report.added.map((a) => a.name)).toEqual(['a-good']);
    expect(report.rejected.map((r) => [r.relPath, r.issues[0]!.rule])).toEqual([
      ['m-chain', 'folder-too-many-visits'],
    ]);
  }, 60_000);

  it('cancels a long walk from jobs.cancel', async () => {
    await call('settings.update', { patch: { import: { folderMaxVisits: 10_000_000 } } });
    const started = await call<JobInfo>('library.import', { path: path.join(dir, 'chained') });
    // Cancel once the job says it is walking folders: an order, not a delay.
    let seen: JobInfo = started.body;
    while (!/folders so far/.test(seen.progress.message ?? '')) {
      seen = (await call<JobInfo>('jobs.wait', { id: started.body.id, timeoutMs: 50 })).body;
      expect(seen.status).toBe('running');
    }
    await call('jobs.cancel', { id: started.body.id });
    const job = await waitJob(started.body.id);
    expect(job.status).toBe('cancelled');
    expect((job.result as ImportReport).cancelled).toBe(true);
  }, 60_000);
});
