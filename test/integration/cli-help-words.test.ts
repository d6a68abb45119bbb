// `skill-curator <group> --help` is where a newcomer learns the commands: every command and sub-command says what it
// does (commander lists one without a description as a bare name, e.g. "labels import <file>" and nothing else).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/harness';

function commandTree(): { name: string; description: string }[] {
  const dump = path.join(repoRoot, 'test', 'fixtures', 'cli', 'dump-commands.mjs');
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', dump, 'src/cli/main.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { name: string; description: string }[];
}

describe('CLI help', () => {
  it('describes every command and sub-command', () => {
    const tree = commandTree();
    expect(tree.map((c) => c.name)).toContain('labels import');
    expect(tree.filter((c) => c.description.trim() === '').map((c) => c.name)).toEqual([]);
  });
});
