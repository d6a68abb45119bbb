// `states export` on the CLI: JSONL on standard output (control characters in the text escaped), a file with --status
// and a one-line summary on stderr, an existing file refused until --overwrite, and `states import` of that file into
// another library bringing the verified status along. The real CLI on real library folders.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';

let dir: string;
const library = (name: string) => path.join(dir, name);

async function ok(data: string, args: string[]) {
  const r = await runCli(data, args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-states-export-'));
  for (const name of ['heat-egg', 'cool-egg', 'peel-egg']) {
    mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    writeFileSync(
      path.join(dir, 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${name} in the kitchen. Use when asked to.\n---\n# ${name}\nDo it.\n`,
    );
  }
  for (const lib of ['a', 'b']) await ok(library(lib), ['import', path.join(dir, 'skills')]);
  await ok(library('a'), [
    'states',
    'edit',
    'heat-egg',
    '--precondition',
    'None',
    '--completion',
    'The egg is hot.',
  ]);
  await ok(library('a'), ['states', 'verify', 'heat-egg']);
  await ok(library('a'), [
    'states',
    'edit',
    'cool-egg',
    '--precondition',
    'The egg is hot.',
    '--completion',
    'The egg is cold.\x1b]0;owned\x07',
  ]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI states export', () => {
  it('prints JSONL by name to standard output, control characters escaped', async () => {
    const r = await ok(library('a'), ['states', 'export']);
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).toContain('\\u001b]0;owned\\u0007');
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        name: 'cool-egg',
        precondition: 'The egg is hot.',
        completion: 'The egg is cold.\x1b]0;owned\x07',
        status: 'edited',
      },
      { name: 'heat-egg', precondition: null, completion: 'The egg is hot.', status: 'verified' },
    ]);
    expect((await ok(library('a'), ['states', 'export', '-'])).stdout).toBe(r.stdout);
  });

  it('writes a file of the statuses asked for, says what it wrote, and replaces it only with --overwrite', async () => {
    const file = path.join(dir, 'verified.jsonl');
    const first = await ok(library('a'), ['states', 'export', file, '--status', 'verified']);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain(`wrote the states of 1 skill (1 verified) to ${file}`);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1);

    const again = await runCli(library('a'), ['states', 'export', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error CONFLICT: ${file} already exists`);
    expect(again.stderr).toContain('--overwrite');
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1);

    const replaced = await ok(library('a'), [
      'states',
      'export',
      file,
      '--overwrite',
      '--status',
      'edited,verified',
    ]);
    expect(replaced.stderr).toContain('wrote the states of 2 skills (1 verified, 1 edited)');

    const wrong = await runCli(library('a'), ['states', 'export', '--status', 'unparsed']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Expected a comma-separated list of parsed, edited, verified');
  });

  it('refuses to export nothing, says which statuses the library has, and writes no file', async () => {
    const file = path.join(dir, 'nothing.jsonl');
    const none = await runCli(library('b'), ['states', 'export', file]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'Nothing to export: no skill has verified or edited states; no skill in this library has states yet. Nothing was written.',
    );
    expect(existsSync(file)).toBe(false);
    const parsed = await runCli(library('a'), ['states', 'export', file, '--status', 'parsed']);
    expect(parsed.code).toBe(1);
    expect(parsed.stderr).toContain(
      'Nothing to export: no skill has parsed states; this library has 1 verified, 1 edited; --status edited,verified (or --status all) exports those. Nothing was written.',
    );
    expect(existsSync(file)).toBe(false);
    const toStdout = await runCli(library('b'), ['states', 'export']);
    expect(toStdout.code).toBe(1);
    expect(toStdout.stdout).toBe('');
    const help = (await ok(library('a'), ['states', 'export', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('write the verified and edited states (--status for others)');
    expect(help).toContain('default: verified,edited, as Save states… in the app');
  });

  it('is read by states import in another library, which marks the verified line verified', async () => {
    const file = path.join(dir, 'verified.jsonl');
    const imported = await ok(library('b'), ['states', 'import', file]);
    expect(imported.stdout).toContain('applied 2;');
    const heat = JSON.parse((await ok(library('b'), ['--json', 'states', 'show', 'heat-egg'])).stdout);
    expect(heat).toMatchObject({ status: 'verified', precondition: null, completion: 'The egg is hot.' });
    const cool = JSON.parse((await ok(library('b'), ['--json', 'states', 'show', 'cool-egg'])).stdout);
    expect(cool).toMatchObject({ status: 'edited', completion: 'The egg is cold.\x1b]0;owned\x07' });
  });
});
