// The CLI with skill-creator's files: `labels import FILE --skill NAME` for a trigger set that names no skill, the
// trigger figures under `eval run`, and `labels export SET [FILE] --format jsonl|evals|triggers`. The real CLI.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { repoRoot } from '../e2e/harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;
let dataDir: string;
const queries = [
  { query: 'merge two pdf files into one', should_trigger: true },
  { query: 'rotate the pages of a scanned document', should_trigger: true },
  { query: 'write a short poem about autumn', should_trigger: false },
];

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir, args);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-labels-'));
  dataDir = path.join(dir, 'data');
  const library = path.join(dir, 'skills');
  for (const [name, description] of [
    ['pdf-tools', 'Merge and split PDF files.'],
    ['scan-archiver', 'Archive scanned documents and photos in folders by date.'],
    ['haiku-writer', 'Write short poems and haiku about the seasons.'],
  ]) {
    mkdirSync(path.join(library, name!), { recursive: true });
    writeFileSync(
      path.join(library, name!, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
    );
  }
  writeFileSync(path.join(dir, 'queries.json'), JSON.stringify({ evals: queries }));
  const core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources') });
  const job = await core['library.import']({ path: library });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  await core.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI: skill-creator label files', () => {
  it('imports a trigger set for the skill given, runs with trigger figures, and writes it back', async () => {
    const file = path.join(dir, 'queries.json');
    const unnamed = await cli('labels', 'import', file);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('--skill NAME');

    const imported = await cli('labels', 'import', file, '--skill', 'pdf-tools');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('pdf-tools-queries: 3 tasks');
    expect(imported.stdout).toContain('Read as skill-creator trigger queries for pdf-tools.');

    const run = await cli(
      'eval',
      'run',
      'pdf-tools-queries',
      '--variants',
      'dense',
      '--k',
      '1',
      '--preset',
      'offline',
    );
    expect(run.code, run.stderr).toBe(0);
    // dense@1: query 1 reaches pdf-tools, 2 goes to scan-archiver, the poem to haiku-writer: 1/2, 0/1, P 100, R 50.
    expect(run.stdout).toMatch(/dense@1\s+pdf-tools\s+1\/2\s+0\/1\s+100\.0\s+50\.0/);

    const out = path.join(dir, 'back.json');
    const written = await cli('labels', 'export', 'pdf-tools-queries', out, '--format', 'triggers');
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('(3 queries for pdf-tools)');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(queries);

    const printed = await cli('labels', 'export', 'pdf-tools-queries', '--format', 'evals');
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({
      skill_name: 'pdf-tools',
      evals: [{ id: 1 }, { id: 2 }],
    });

    const ambiguous = await cli('labels', 'export', 'pdf-tools-queries', path.join(dir, 'x.json'));
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('--format evals');
  });
});
