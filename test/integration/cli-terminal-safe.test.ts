// Skill text is untrusted, and a terminal acts on the control sequences it may carry (clear the screen, retitle the
// window, write the clipboard): the CLI prints them as visible escapes. The real CLI on a real library.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';
import { writeSkill } from '../fixtures/skills/library-fixture';

let dir: string;
let dataDir: string;
const hostile = 'Clears\\e[2J\\e[31m the screen\\e]0;owned\\a and \\e]52;c;ZWNobw==\\a the clipboard';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-terminal-safe-'));
  dataDir = path.join(dir, 'data');
  const skills = path.join(dir, 'skills');
  // YAML's double-quoted \e and \a are ESC and BEL.
  writeSkill(
    skills,
    'screen-clearer',
    `---\nname: screen-clearer\ndescription: "${hostile}"\n---\n# Screen\n\nWhen asked, clear the screen.\n`,
  );
  const imported = await runCli(dataDir, ['import', skills]);
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI on skill text with terminal control sequences', () => {
  it('shows them as escapes in show, list and search', async () => {
    for (const args of [['show', 'screen-clearer'], ['list'], ['search', 'screen']]) {
      const run = await runCli(dataDir, args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('screen-clearer');
      expect(run.stdout + run.stderr).not.toContain('\u001b');
      expect(run.stdout + run.stderr).not.toContain('\u0007');
    }
    const shown = await runCli(dataDir, ['show', 'screen-clearer']);
    expect(shown.stdout).toContain('Clears\\x1b[2J\\x1b[31m the screen\\x1b]0;owned\\x07');
  });
});
