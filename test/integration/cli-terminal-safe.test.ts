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
  // YAML's \u escapes: a right-to-left override (makes "exe.png" read as "gnp.exe"), an isolate pair, a zero-width space.
  writeSkill(
    skills,
    'bidi-spoof',
    `---\nname: bidi-spoof\ndescription: "Opens report\\u202Egnp.exe\\u202C with \\u2066care\\u2069 and\\u200Bquietly"\n---\n# Spoof\n\nOpen it.\n`,
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

  it('shows bidirectional and zero-width characters as escapes in show, list, search, profile budget and --json', async () => {
    const made = await runCli(dataDir, ['profile', 'create', 'spoofs', 'bidi-spoof']);
    expect(made.code, made.stderr).toBe(0);
    const invisible = /[\u200b\u202a-\u202e\u2066-\u2069]/;
    for (const args of [
      ['show', 'bidi-spoof'],
      ['list'],
      ['search', 'report'],
      ['profile', 'budget', 'spoofs'],
      ['--json', 'show', 'bidi-spoof'],
    ]) {
      const run = await runCli(dataDir, args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr, args.join(' ')).not.toMatch(invisible);
      expect(run.stdout, args.join(' ')).toContain('\\u202egnp.exe\\u202c');
    }
    // --json stays JSON, and holds the description as imported.
    const json = JSON.parse((await runCli(dataDir, ['--json', 'show', 'bidi-spoof'])).stdout) as {
      description: string;
    };
    expect(json.description).toBe('Opens report\u202Egnp.exe\u202C with \u2066care\u2069 and\u200Bquietly');
  });
});
