// `eval run` given a tasks file instead of a label set name (what a newcomer types first): a NOT_FOUND error that
// says to import the file with `labels import`, not a bare INTERNAL "No label set named ..."; and a set whose gold
// skills the library lacks is named as such, since every missing one scores as a miss, and those in the trash with
// the command that restores them. The real CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dataDir: string;

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir, args);
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-label-hint-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI: eval run on something that is not a label set', () => {
  it('with no label set yet, names the bundled sample tasks to import', async () => {
    const run = await cli('eval', 'run', 'sample');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`labels import ${path.join(repoRoot, 'resources', 'sample-tasks.jsonl')}`);
  });

  it('given the tasks file, says to import it with labels import', async () => {
    const file = path.join('resources', 'sample-tasks.jsonl');
    const run = await cli('eval', 'run', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NOT_FOUND');
    expect(run.stderr).toContain(`labels import ${file}`);
  });

  it('given an unknown name, names the label sets there are', async () => {
    expect((await cli('labels', 'import', path.join(repoRoot, 'resources', 'sample-tasks.jsonl'))).code).toBe(
      0,
    );
    const run = await cli('eval', 'run', 'sample-taks');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NOT_FOUND');
    expect(run.stderr).toContain('Label sets: sample-tasks');
  });
});

describe('CLI: a label set whose gold skills the library does not hold', () => {
  it('says so on labels import and beside the figures of eval run, instead of bare zeros', async () => {
    // The library holds one of the set's gold skills; the sample tasks name 46.
    const one = path.join(repoRoot, 'resources', 'sample-library', 'household-make-coffee');
    expect((await cli('import', one)).code).toBe(0);
    const tasks = path.join(repoRoot, 'resources', 'sample-tasks.jsonl');
    const imported = await cli('labels', 'import', tasks, '--name', 'elsewhere');
    expect(imported.code).toBe(0);
    expect(imported.stdout).not.toContain('Updated the label set');
    const again = await cli('labels', 'import', tasks, '--name', 'elsewhere');
    expect(again.stdout).toContain(
      'Updated the label set “elsewhere” already here: 0 added, 38 updated; 38 tasks.',
    );
    expect(imported.stdout).toContain('45 of the 46 gold skills of this label set are not in the library');
    expect(imported.stdout).not.toMatch(/not in the library \([^)]*household-make-coffee/);
    const run = await cli('eval', 'run', 'elsewhere', '--variants', 'no-parse', '--k', '1');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('45 of the 46 gold skills of this label set are not in the library');
  });

  it('names a deleted gold skill as in the trash, with the command that restores it', async () => {
    const deleted = await cli('skill', 'delete', 'household-make-coffee', '--yes');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(
      'Note: household-make-coffee is gold in the label sets “elsewhere”, “sample-tasks”: evaluations count it as a miss until the delete is restored.',
    );
    const trash = JSON.parse((await cli('--json', 'trash')).stdout) as { id: number }[];
    const run = await cli('eval', 'run', 'elsewhere', '--variants', 'no-parse', '--k', '1');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Note: 46 of the 46 gold skills of this label set are not in the library (');
    expect(run.stdout).toContain(
      `they count as misses. 1 of them (household-make-coffee) is in the trash: skill-curator trash restore ${trash[0]!.id}. Import the skills the set was written for`,
    );
  });
});
