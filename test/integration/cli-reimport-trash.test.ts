// The newcomer's repro on the real CLI: a re-import that finds a verified skill gone from its source names it, says
// that a curator had verified its states and that `undo` brings it back; `undo` then restores its states, their
// history and its tags.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;
let skills: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-reimport-'));
  skills = path.join(dir, 'skills');
  for (const name of ['boil-water', 'slice-bread', 'wash-cup']) {
    mkdirSync(path.join(skills, name), { recursive: true });
    writeFileSync(
      path.join(skills, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Does ${name}.\n---\n\nBody of ${name}.\n`,
    );
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<CliResult> {
  const result = await runCli(path.join(dir, 'data'), args);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

describe('CLI re-import that loses skills', () => {
  it('names the removed skills, flags the verified one, and undo brings it back with its states', async () => {
    await cli('import', skills);
    await cli(
      'states',
      'edit',
      'boil-water',
      '--precondition',
      'A full kettle.',
      '--completion',
      'It boils.',
    );
    await cli('states', 'verify', 'boil-water');
    await cli('tag', 'add', 'kitchen', 'boil-water');
    const history = (await cli('states', 'history', 'boil-water')).stdout;
    rmSync(path.join(skills, 'boil-water'), { recursive: true });
    rmSync(path.join(skills, 'wash-cup'), { recursive: true });

    const again = (await cli('import', skills)).stdout;
    expect(again).toContain('removed 2');
    expect(again).toMatch(
      / {2}a re-import of "skills" \(last imported \S+\): the counts are what changed since\n/,
    );
    expect(again).toContain('  removed "boil-water" at boil-water: had states a curator verified');
    expect(again).toContain('  removed "wash-cup" at wash-cup\n');
    expect(again).toMatch(
      /1 removed had states a curator edited or verified: moved to the trash with the rest; skill-curator --data \S+ undo brings them back/,
    );
    const report = (await cli('import-report', '1')).stdout;
    expect(report).toContain('removed "boil-water" at boil-water: had states a curator verified');
    expect(report).toContain('removed "wash-cup" at wash-cup');

    expect((await cli('undo')).stdout).toContain('restored boil-water, wash-cup gone from skills (2 skills)');
    const states = (await cli('--json', 'states', 'show', 'boil-water')).stdout;
    expect(JSON.parse(states)).toMatchObject({
      status: 'verified',
      precondition: 'A full kettle.',
      completion: 'It boils.',
    });
    expect((await cli('states', 'history', 'boil-water')).stdout).toBe(history);
    const tagged = JSON.parse((await cli('--json', 'list', '--tag', 'kitchen')).stdout) as {
      items: { name: string }[];
    };
    expect(tagged.items.map((s) => s.name)).toEqual(['boil-water']);
  }, 120_000);
});
