// An offline selection over the HTTP host can be cancelled: the lexical scorer lets the event loop turn while it
// scores, so a `select.cancel` sent while the pairs are scored is read and answered before the selection ends, and
// the selection stops with CANCELLED and stores no run. Measured by order, not time.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { maxGivenParseChars, maxGivenParseSubtasks } from '../../src/shared/api/select';
import type { JobInfo } from '../../src/shared/jobs';
import { skillMd, writeSkill } from '../fixtures/skills/library-fixture';

let dir: string;
let core: Core;
let host: HttpHost;

const objects = ['mug', 'kettle', 'plate', 'apple', 'tomato', 'lamp', 'sponge', 'knife', 'bread', 'cup'];
const actions = ['heat', 'cool', 'wash', 'slice', 'carry', 'open', 'fill', 'dry', 'stack', 'find'];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-select-cancel-'));
  const skills = path.join(dir, 'skills');
  // Enough skills that scoring them all outlasts the cancel's round trip on an idle machine too.
  for (let i = 0; i < 900; i++) {
    const a = actions[i % actions.length]!;
    const o = objects[Math.floor(i / actions.length) % objects.length]!;
    writeSkill(
      skills,
      `${a}-${o}-${i}`,
      skillMd(
        `${a}-${o}-${i}`,
        `Use when the agent must ${a} the ${o} in the kitchen.`,
        `# Steps\n\n${a} the ${o}.\n`,
      ),
    );
  }
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core });
  const job = await call<JobInfo>('library.import', { path: skills });
  expect((await call<JobInfo>('jobs.wait', { id: job.id, timeoutMs: 120_000 })).status).toBe('done');
});

afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(method: string, body: unknown): Promise<Response> {
  return fetch(`${host.url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  });
}

async function call<T>(method: string, body: unknown): Promise<T> {
  const res = await post(method, body);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('an offline selection over the HTTP host', () => {
  it('is cancelled by a select.cancel sent while it scores', async () => {
    // The most states a given parse may have, against every recalled skill: thousands of pairs, in many calls
    // to the scorer.
    const states = Array.from(
      { length: maxGivenParseSubtasks + 1 },
      // Long states (many query terms) make each pair slow enough for the cancel's round trip.
      (_, i) =>
        Array.from({ length: 20 }, (_, j) => `the ${objects[(i + j) % 10]} is ${actions[(i * 3 + j) % 10]}ed`)
          .join(', ')
          .slice(0, maxGivenParseChars),
    );
    const parse = { subtasks: states.slice(1).map((s) => `Make it so: ${s}`), states };
    const order: string[] = [];
    let cancel: Promise<unknown> | null = null;
    const stop = core.onEvent((event) => {
      if (event.type !== 'select.progress' || event.requestId !== 'long' || event.done === 0 || cancel)
        return;
      cancel = call<{ cancelled: boolean }>('select.cancel', { requestId: 'long' }).then((answer) => {
        order.push('cancel answered');
        return answer;
      });
    });
    try {
      const runsBefore = (await call<unknown[]>('select.runs', { limit: 1000 })).length;
      const res = await post('select.compare', {
        task: 'heat the mug, wash the plate and slice the apple',
        variants: ['full'],
        preset: 'offline',
        parse,
        recallK: 500,
        requestId: 'long',
      });
      order.push('selection ended');
      expect(cancel).not.toBeNull();
      expect(await cancel).toEqual({ cancelled: true });
      expect(order).toEqual(['cancel answered', 'selection ended']);
      expect(res.status).not.toBe(200);
      expect(await res.json()).toMatchObject({ code: 'CANCELLED' });
      expect((await call<unknown[]>('select.runs', { limit: 1000 })).length).toBe(runsBefore);
    } finally {
      stop();
    }
  }, 120_000);
});
