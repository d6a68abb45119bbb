// The CLI's regression check after a batch of edits: `eval rerun` repeats the last run and writes the comparison with
// --out, `eval compare A B --json`, `eval confusable`, and `eval export` to a .csv. The real CLI on a real library file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import type { EvalComparison } from '../../src/shared/api';
import { repoRoot } from '../e2e/harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dataDir: string;
const resources = path.join(repoRoot, 'resources');

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir, args);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-eval-'));
  const core = createCore({ dataDir, resourcesDir: resources });
  await core['settings.update']({ patch: { selection: { preset: 'offline' } } });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  await core['states.import']({ path: path.join(resources, 'sample-states.jsonl') });
  const tasks = path.join(dataDir, 'two.jsonl');
  writeFileSync(
    tasks,
    readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n'),
  );
  await core['labels.import']({ path: tasks, name: 'two' });
  await core.close();
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI: re-run and compare', () => {
  it('rerun writes the comparison naming the edited skills; compare, confusable and export follow', async () => {
    const first = await cli('eval', 'run', 'two', '--variants', 'full,no-parse', '--k', '1');
    expect(first.code, first.stderr).toBe(0);

    const core = createCore({ dataDir, resourcesDir: resources });
    for (const [name, precondition, completion] of [
      ['household-make-coffee', 'The hot mug is in the coffee machine.', 'The mug is full of coffee.'],
      ['household-heat-object-microwave', 'The hot pan is on the dining table.', 'The microwave is off.'],
    ] as const) {
      const { id } = await core['library.get']({ name });
      await core['states.edit']({ skillId: id, precondition, completion });
    }
    await core.close();

    const out = path.join(dataDir, 'comparison.md');
    const rerun = await cli('eval', 'rerun', 'two', '--out', out);
    expect(rerun.code, rerun.stderr).toBe(0);
    const md = readFileSync(out, 'utf8');
    expect(md).toMatch(/^# Run 2 compared with run 1: two/);
    expect(md).toContain('Changed between the runs: states.');
    expect(md).toContain('## Skills changed between the runs (2: 2 states edited)');
    expect(md).toContain('**household-make-coffee**: states-edited');
    expect(md).toContain('**household-heat-object-microwave**: states-edited');

    const compared = await cli('--json', 'eval', 'compare', '2', '1');
    expect(compared.code, compared.stderr).toBe(0);
    const c = JSON.parse(compared.stdout) as EvalComparison;
    expect([c.runId, c.baseRunId]).toEqual([2, 1]);
    expect(c.editedSkills.map((s) => s.name).sort()).toEqual([
      'household-heat-object-microwave',
      'household-make-coffee',
    ]);
    expect(md).toContain(`## Tasks whose answers changed (${c.changedTasks.length})`);

    const confusable = await cli('eval', 'confusable', '2', '--phi-margin', '1');
    expect(confusable.code, confusable.stderr).toBe(0);
    expect(confusable.stdout).toMatch(/^confusable pairs in run 2 \(φ margin 1, ρ margin 0\.2\):/);

    const csv = path.join(dataDir, 'run.csv');
    const exported = await cli('eval', 'export', '2', csv);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toMatch(/^item,task,variant,k,gold,answer/);
    const again = await cli('eval', 'export', '2', csv);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists; choose a new file or run again with --overwrite/);
    expect((await cli('eval', 'export', '2', csv, '--overwrite')).code).toBe(0);

    const none = await cli('eval', 'compare', '1');
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/no earlier finished run/);
  }, 180_000);
});
