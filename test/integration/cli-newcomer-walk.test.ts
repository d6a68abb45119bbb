// What a newcomer trips over on the CLI with real-looking data: every skill of an import is accounted for in its
// summary line; a states file names the lines it skipped or kept, and how to apply them anyway; `settings set` says
// what it changed, refuses a key that does not exist, and reaches nested keys; `show` of a package with hundreds of
// files no longer prints them all on one line. The real CLI on a real library folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';

let dir: string;
const data = () => path.join(dir, 'data');

function writeSkill(root: string, name: string, extra = ''): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(
    path.join(root, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${name} for the kitchen. Use when asked to.\n---\n# ${name}\nDo it.\n${extra}`,
  );
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-newcomer-walk-'));
  for (const copy of ['first', 'second']) {
    writeSkill(path.join(dir, copy), 'heat-egg');
    writeSkill(path.join(dir, copy), 'cool-egg', copy === 'second' ? 'One more line.\n' : '');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI import of a copy of a source already in the library', () => {
  it('counts the identical skills it did not add, so the summary adds up', async () => {
    expect((await runCli(data(), ['import', path.join(dir, 'first')])).code).toBe(0);
    const again = await runCli(data(), ['import', path.join(dir, 'second')]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('added 0');
    expect(again.stdout).toContain('conflicts 1');
    expect(again.stdout).toContain(
      'duplicates 1: the same content as a skill already in the library or earlier in this source, not added again',
    );
  });
});

describe('CLI states import of a file written for a bigger library', () => {
  it('names the skills it skipped and the human edits it kept, and how to replace those', async () => {
    const states = path.join(dir, 'states.jsonl');
    const line = (name: string) =>
      JSON.stringify({ name, precondition: 'An egg is in the room.', completion: 'The egg is warm.' });
    writeFileSync(states, ['heat-egg', 'boil-milk', 'fry-bacon'].map(line).join('\n') + '\n');
    const first = await runCli(data(), ['states', 'import', states, '--verify']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('unknown skills 2');
    expect(first.stdout).toContain('skipped, no skill of that name in the library: boil-milk, fry-bacon');
    // The very same file again: nothing to write, and nothing a curator did was kept over it.
    const same = await runCli(data(), ['states', 'import', states, '--verify']);
    expect(same.stdout).toContain('applied 0; unchanged 1; kept human edits 0; unknown skills 2');
    writeFileSync(
      states,
      JSON.stringify({ name: 'heat-egg', completion: 'The egg is hot.', precondition: null }),
    );
    const again = await runCli(data(), ['states', 'import', states]);
    expect(again.stdout).toContain('kept human edits 1');
    expect(again.stdout).toContain(
      'kept your edited or verified states of heat-egg; --overwrite replaces them',
    );
  });
});

describe('CLI settings set', () => {
  it('says what changed, reaches a nested key, and refuses an unknown key instead of ignoring it', async () => {
    const set = await runCli(data(), [
      'settings',
      'set',
      'selection.recallK=40',
      'selection.embedderCalibration.scale=10',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(
      'selection.recallK = 40 (was 30)\nselection.embedderCalibration.scale = 10 (was 20)\n',
    );
    const shown = JSON.parse((await runCli(data(), ['settings', 'show'])).stdout);
    expect(shown.selection.embedderCalibration).toMatchObject({ scale: 10, use: 'model' });

    const typo = await runCli(data(), ['settings', 'set', 'selection.recalK=50']);
    expect(typo.code).toBe(1);
    expect(typo.stderr + typo.stdout).toContain(
      'Unknown setting "selection.recalK": selection has recallK, rankedK',
    );
    expect(JSON.parse((await runCli(data(), ['settings', 'show'])).stdout).selection.recallK).toBe(40);
  });
});

describe('CLI show of a package with many files', () => {
  it('lists the first 20 and says how to list them all', async () => {
    const root = path.join(dir, 'big');
    writeSkill(root, 'many-refs');
    mkdirSync(path.join(root, 'many-refs', 'references'));
    for (let i = 10; i < 35; i++)
      writeFileSync(path.join(root, 'many-refs', 'references', `r${i}.md`), `# ${i}\n`);
    expect((await runCli(data(), ['import', root])).code).toBe(0);
    const short = await runCli(data(), ['show', 'many-refs']);
    expect(short.stdout).toContain('files (25): ');
    expect(short.stdout).toContain(', … 5 more (--files lists them all)');
    expect(short.stdout).not.toContain('references/r34.md');
    const all = await runCli(data(), ['show', 'many-refs', '--files']);
    expect(all.stdout).toContain('references/r34.md');
    expect(all.stdout).not.toContain('more (--files');
  });
});
