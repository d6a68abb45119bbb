// A bad number on the command line is commander's one-line option error with a non-zero exit, never a stack; counts
// (k, K, limits) below 1 are refused before anything runs. The real CLI, on an empty data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-numbers-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function refused(args: string[], option: string, value: string, why: string): Promise<void> {
  const run = await runCli(dataDir, args);
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.stderr.split('\n')[0]).toBe(`error: option '${option}' argument '${value}' is invalid. ${why}`);
  expect(run.stderr).not.toMatch(/CuratorError|\n\s+at /);
}

describe('numeric options', () => {
  it('refuses a value that is not a whole number', async () => {
    await refused(['select', 'heat a mug', '--k', 'abc'], '--k <k>', 'abc', 'Expected a whole number.');
    await refused(['list', '--limit', '2.5'], '--limit <n>', '2.5', 'Expected a whole number.');
  });

  it('refuses counts below 1', async () => {
    await refused(['select', 'heat a mug', '--recall-k', '0'], '--recall-k <K>', '0', 'Expected 1 or more.');
    await refused(['select', 'heat a mug', '--k', '-2'], '--k <k>', '-2', 'Expected 1 or more.');
    await refused(['eval', 'run', 'set', '--k', '1,0'], '--k <list>', '1,0', 'Expected 1 or more.');
  });

  it('checks ports and margins the same way', async () => {
    await refused(['serve', '--port', '70000'], '--port <port>', '70000', 'Expected a port from 0 to 65535.');
    await refused(
      ['eval', 'confusable', '1', '--phi-margin', 'x'],
      '--phi-margin <x>',
      'x',
      'Expected a number.',
    );
  });

  it('reports an id argument that is not a number as an error line', async () => {
    const run = await runCli(dataDir, ['source', 'check', 'abc']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error INVALID_ARGUMENT: Not a whole number: abc');
  });
});
