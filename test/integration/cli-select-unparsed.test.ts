// `select` on a library nobody has parsed yet, with no LLM (a newcomer's first try): the many "X has no parse" notes
// come as one line that says what to do (all of them with --verbose), and "Parse: none" says how to give the task
// its states; --verbose (which the program-level option used to swallow) shows every candidate; a gold skill missed
// for want of a task parse is said in words, not as "src + 1 >= n"; and a labelled task's hand-typed parse stands in
// when no LLM can parse it (the demo task typed by hand answers as the demo does). The real CLI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { repoRoot } from '../e2e/harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dataDir: string;
const task = ['put', 'a', 'hot', 'mug', 'in', 'the', 'coffee', 'machine'];
const resources = path.join(repoRoot, 'resources');

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir, args);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-unparsed-'));
  const core = createCore({ dataDir, resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  // The demo task's gold, without the parse the sample labels give it.
  const labels = path.join(dataDir, 'gold-only.jsonl');
  const gold = [
    'household-locate-object',
    'household-heat-object-microwave',
    'household-put-object-in-receptacle',
  ];
  writeFileSync(labels, JSON.stringify({ id: 'mug', task: task.join(' '), gold }) + '\n');
  await core['labels.import']({ path: labels });
  await core.close();
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI select on an unparsed library', () => {
  it('says that a model preset with no model scores lexically, and what to do', async () => {
    const exact = await cli('select', ...task, '--preset', 'exact', '--estimate');
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stdout).toContain(
      'No model is set up for "exact", so it scores with the offline (lexical) engine',
    );
    expect(exact.stdout).toContain('--preset offline');
    const offline = await cli('select', ...task, '--preset', 'offline', '--estimate');
    expect(offline.stdout).not.toContain('No model is set up');
    // The run's own trace says it too, beside the preset it was asked for.
    const ran = await cli('select', ...task, '--preset', 'exact');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^Preset: exact · /m);
    expect(ran.stdout).toContain(
      'No model is set up for "exact", so it scored with the offline (lexical) engine',
    );
    // Once: the estimate printed before the run leaves it to the run's report.
    expect(`${ran.stdout}${ran.stderr}`.match(/No model is set up for "exact"/g)).toHaveLength(1);
  });

  it('sums up the candidates without a parse in one note, and says how to parse the task', async () => {
    const run = await cli('select', ...task, '--preset', 'offline');
    expect(run.code, run.stderr).toBe(0);
    const noParse = run.stdout.split('\n').filter((l) => l.startsWith('Note:') && l.includes('no parse'));
    expect(noParse).toHaveLength(1);
    expect(noParse[0]).toMatch(/^Note: \d+ candidates have no parse/);
    expect(noParse[0]).toContain('states import');
    expect(run.stdout).toContain('Parse: none (no states for the task');
    expect(run.stdout).toContain('--parse FILE.json');
  });

  it('says why a gold skill was missed in words when the task has no parse', async () => {
    const run = await cli('select', ...task, '--preset', 'offline');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/src \+ 1 >= n|0 state\(s\)/);
    expect(run.stdout).toMatch(
      /missed gold: household-put-object-in-receptacle was not placed: the task has no parse, so only relevance ranks the skills; its ρ -?\d+\.\d+ is #\d+ of \d+/,
    );
    const notPlaced = run.stdout.split('\n').filter((l) => /candidates? (was|were) not placed/.test(l));
    expect(notPlaced).toHaveLength(1);
    expect(notPlaced[0]).toContain('no LLM is set up to parse it');
    expect(notPlaced[0]).toContain('--parse FILE.json');
    expect(run.stdout).toContain('not placed (the task has no parse)');
  });

  it('lists every one, and every candidate, with --verbose', async () => {
    const run = await cli('select', ...task, '--preset', 'offline', '--verbose');
    expect(run.code, run.stderr).toBe(0);
    const perSkill = run.stdout.split('\n').filter((l) => / has no parse: used precondition None/.test(l));
    expect(perSkill.length).toBeGreaterThan(3);
    expect(run.stdout).not.toMatch(/… \d+ more \(--verbose\)/);
  });

  it('shows an unparsed skill as not parsed, not as a parse that answered None', async () => {
    const run = await cli('states', 'show', 'household-make-coffee');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('precondition: (not parsed yet)');
    expect(run.stdout).not.toContain('None');
  });

  it('compares the variants that can run, and says why llm did not', async () => {
    const run = await cli('select', ...task, '--preset', 'offline', '--compare', 'full,dense,llm');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^run #\d+ \(full\): household-/m);
    expect(run.stdout).toMatch(/^run #\d+ \(dense\): household-/m);
    expect(run.stdout).toContain('not stored (llm): (empty)');
    expect(run.stdout).toMatch(/^ {2}llm +\(none: The llm variant needs an LLM endpoint/m);
    expect(run.stdout).not.toContain('#-1');
  });

  it('takes the parse a label set gives the task when no LLM can parse it', async () => {
    const core = createCore({ dataDir, resourcesDir: resources });
    await core['labels.import']({ path: path.join(resources, 'sample-tasks.jsonl') });
    await core.close();
    const run = await cli('select', ...task, '--preset', 'offline');
    expect(run.code, run.stderr).toBe(0);
    const labelled = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { task: string; parse?: { states: string[] } })
      .find((l) => l.task === task.join(' '))!;
    expect(run.stdout).not.toContain('Parse: none');
    labelled.parse!.states.forEach((state, i) => expect(run.stdout).toContain(`s${i}: ${state}`));
    expect(run.stdout).not.toContain('the task has no parse');
  });
});
