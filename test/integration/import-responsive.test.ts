// class: slow or huge front matter — the HTTP host keeps answering while an import parses heavy SKILL.md front matter.
// Measured by order, not time: a request sent while the import runs is answered before the import job finishes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import type { JobInfo } from '../../src/shared/jobs';

let dir: string;
let core: Core;
let host: HttpHost;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-responsive-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core });
});

afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call<T>(method: string, body: unknown): Promise<T> {
  const res = await fetch(`${host.url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('class: slow or huge front matter', () => {
  it('answers /api while an import parses 60 skills of heavy front matter', async () => {
    // Each line's front matter is a 1500-key metadata map: valid, under the bound, and tens of milliseconds to parse.
    const lines = Array.from({ length: 60 }, (_, i) => {
      const metadata = Object.fromEntries(Array.from({ length: 1500 }, (_, k) => [`k${k}`, 'v']));
      return JSON.stringify({ name: `heavy-${i}`, description: `Heavy ${i}.`, metadata, body: 'Do it.' });
    });
    const dump = path.join(dir, 'heavy.jsonl');
    writeFileSync(dump, lines.join('\n') + '\n');

    const order: string[] = [];
    let asked = false;
    let answered: Promise<void> = Promise.resolve();
    const stop = core.onEvent((event) => {
      if (event.type !== 'job.updated') return;
      const { job } = event;
      if (job.status === 'running' && job.progress.done >= 1 && !asked) {
        asked = true; // the import is inside its loop over skills: ask the host something now
        answered = call<{ selection: unknown }>('settings.get', {}).then((s) => {
          expect(s.selection).toBeDefined();
          order.push('api answered');
        });
      }
      if (job.status === 'done' || job.status === 'failed') order.push(`job ${job.status}`);
    });
    try {
      const job = await call<JobInfo>('library.import', { path: dump });
      const finished = await call<JobInfo>('jobs.wait', { id: job.id, timeoutMs: 120_000 });
      await answered;
      expect(asked).toBe(true);
      expect(finished.status).toBe('done');
      expect(order).toEqual(['api answered', 'job done']);
      expect((finished.result as { added: unknown[] }).added).toHaveLength(60);
    } finally {
      stop();
    }
  });
});
