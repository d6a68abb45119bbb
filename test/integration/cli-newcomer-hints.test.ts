// Skills refused only because their "name" differs from their folder (77 of the 633 real zjunlp packages) or has
// capitals or spaces (13 of them): the CLI's import report names the settings that take them in with a warning, and
// following it imports them; and a dense
// search without an embedding model says it ranked lexically. The real CLI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/harness';

let dir: string;

function cli(...args: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', '--data', path.join(dir, 'data'), ...args],
    { cwd: repoRoot, encoding: 'utf8' },
  );
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-name-hint-'));
  const skill = (folder: string, name: string) => {
    mkdirSync(path.join(dir, 'borrowed', folder), { recursive: true });
    writeFileSync(
      path.join(dir, 'borrowed', folder, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Tidy a desk. Use when the desk is cluttered.\n---\n# Tidy\n`,
    );
  };
  skill('tidy-desk', 'desk-tidier');
  skill('Bad Name', 'Bad Name');
  skill('sloppy', 'Sloppy Name');
  skill('bad-name-too-long', `Long ${'x'.repeat(70)}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI import of skills whose name is not their folder', () => {
  it('names the setting that imports them, and it does', () => {
    const first = cli('import', path.join(dir, 'borrowed'));
    expect(first.stdout).toContain('rejected 4');
    // An over-long name is refused whatever the settings say, so it is not counted; "Sloppy Name" in "sloppy" is
    // counted with each of its two problems.
    expect(first.stdout).toContain(
      '3 of them only because of their "name" (2 differ from their folder, 2 have capitals, spaces or other characters the spec forbids (1 has both)); not your files to fix? settings set import.nameFolderMismatch=warning import.nameFormat=warning, then import again',
    );
    expect(cli('settings', 'set', 'import.nameFolderMismatch=warning').status).toBe(0);
    const second = cli('import', path.join(dir, 'borrowed'));
    expect(second.stdout).toContain('added 1');
    expect(second.stdout).toContain('rejected 3');
    expect(second.stdout).toContain(
      '2 of them only because of their "name" (they have capitals, spaces or other characters the spec forbids); not your files to fix? settings set import.nameFolderMismatch=warning import.nameFormat=warning',
    );
    expect(cli('settings', 'set', 'import.nameFormat=warning').status).toBe(0);
    const third = cli('import', path.join(dir, 'borrowed'));
    expect(third.stdout).toContain('added 2');
    expect(third.stdout).toContain('rejected 1');
    expect(third.stdout).not.toContain('only because of their "name"');
    expect(cli('search', 'tidy', '--json').stdout).toContain('"Bad Name"');
  });

  it('says when a dense search ran without an embedding model, and what to do', () => {
    const dense = cli('search', 'tidy', 'desk', '--mode', 'dense');
    expect(dense.status, dense.stderr).toBe(0);
    expect(dense.stdout).toContain('note: dense search needs an embedding model and none is set up');
    expect(dense.stdout).toContain('models download embedder');
    expect(cli('search', 'tidy', 'desk').stdout).not.toContain('needs an embedding model');
  });
});

describe('CLI import report of a JSONL dump', () => {
  it('names a bad line once: the dump, then the line', () => {
    const dump = path.join(dir, 'dump.jsonl');
    writeFileSync(
      dump,
      [
        JSON.stringify({ name: 'open-door', description: 'Open a door.', body: 'Pull the handle.' }),
        '{"name": broken',
      ].join('\n') + '\n',
    );
    const out = cli('import', dump);
    expect(out.stdout).toContain('rejected dump.jsonl:2 [jsonl-syntax] line 2 is not valid JSON');
    expect(out.stdout).not.toContain('dump.jsonl:2:2');
  });
});
