// The "why" sentences through the real API and the real CLI on the sample library (offline engine, real SQLite): a
// labelled two-stage task gets one sentence per pick naming its stage and runner-up, gold marks, and the same sentences
// in `select` text and --json.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import type { SelectionResult } from '../../src/shared/api';
import { type CliResult, runCli } from '../fixtures/run-cli';

const resources = path.resolve('resources');
const item = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string; task: string; gold: string[]; parse: object })
  .find((i) => i.id === 'dv-07')!;
let dir: string;
let apiResult: SelectionResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-why-'));
  const core = createCore({ dataDir: dir, resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  await core['states.import']({ path: path.join(resources, 'sample-states.jsonl'), verify: true });
  await core['labels.import']({ path: path.join(resources, 'sample-tasks.jsonl'), name: 'sample' });
  apiResult = await core['select.run']({
    task: item.task,
    parse: item.parse as never,
    preset: 'offline',
  });
  await core.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dir, args);
}

describe('the why of a selection in the API and the CLI', () => {
  it('select.run answers one sentence per pick with its stage and runner-up, gold marked', () => {
    const why = apiResult.why!;
    const trace = apiResult.trace;
    expect(why.gold).toEqual(item.gold);
    expect(why.picks.map((p) => p.name)).toEqual(apiResult.answer.map((a) => a.name));
    expect(trace.stages.length).toBeGreaterThanOrEqual(2);
    for (const pick of why.picks) {
      expect(pick.gold).toBe(item.gold.includes(pick.name));
      for (const win of pick.stages) {
        const stage = trace.stages[win.stage]!;
        expect(stage.winner).toBe(pick.candidate);
        expect(pick.sentence).toContain(`won stage ${win.stage + 1} (s${stage.from} → s${stage.to}`);
        if (win.runnerUp) expect(pick.sentence).toContain(`beating ${win.runnerUp.name} by`);
      }
      expect(pick.sentence).toContain(`it completes s${pick.edge!.tgt}`);
    }
    expect(why.offlineNote).toMatch(/offline \(lexical\) engine/);
    expect(why.stages.map((s) => s.winner)).toEqual(trace.stages.map((s) => s.winner));
  });

  it('the CLI prints the same sentences in select text and --json', async () => {
    const parseFile = path.join(dir, 'parse.json');
    writeFileSync(parseFile, JSON.stringify(item.parse));
    const args = ['select', '--parse', parseFile, '--preset', 'offline', item.task];
    const text = await cli(...args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Why:');
    for (const pick of apiResult.why!.picks) expect(text.stdout).toContain(pick.sentence);
    expect(text.stdout).toContain(`Gold: ${item.gold.join(', ')}`);

    const json = await cli('--json', ...args);
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as SelectionResult;
    expect(result.why!.picks.map((p) => p.sentence)).toEqual(apiResult.why!.picks.map((p) => p.sentence));
  }, 90_000);
});
