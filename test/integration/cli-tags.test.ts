// The tag commands of the real CLI on a real library file: tag add|remove|list by id or name, list --tag, and a clear
// error for a bad tag or an unknown skill.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-tags-'));
  for (const name of ['heat-object', 'cool-object', 'slice-bread']) {
    mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    writeFileSync(
      path.join(dir, 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Does ${name}.\n---\n\nBody of ${name}.\n`,
    );
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): Promise<CliResult> {
  return runCli(path.join(dir, 'data'), args);
}

describe('CLI tags', () => {
  it('tags skills by name, lists tags, filters list --tag, and removes a tag', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    const added = await cli('tag', 'add', 'Kitchen,objects', 'heat-object', 'cool-object');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('4 tags added');
    const tags = await cli('--json', 'tag', 'list');
    expect(JSON.parse(tags.stdout)).toEqual([
      { tag: 'kitchen', skills: 2 },
      { tag: 'objects', skills: 2 },
    ]);
    const listed = await cli('--json', 'list', '--tag', 'kitchen');
    expect((JSON.parse(listed.stdout) as { items: { name: string }[] }).items.map((s) => s.name)).toEqual([
      'cool-object',
      'heat-object',
    ]);
    expect((await cli('tag', 'remove', 'kitchen', 'cool-object')).stdout).toContain('1 tag removed');
    const after = await cli('list', '--tag', 'kitchen');
    expect(after.stdout).toContain('heat-object');
    expect(after.stdout).not.toContain('cool-object');
  }, 60_000);

  it('refuses a blank tag and an unknown skill, writing nothing', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    const unknown = await cli('tag', 'add', 'kitchen', 'no-such-skill');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no-such-skill/);
    const blank = await cli('tag', 'add', ' , ', 'heat-object');
    expect(blank.code).not.toBe(0);
    expect(blank.stderr).toMatch(/at least one tag/i);
    expect((await cli('tag', 'list')).stdout).toContain('No tags yet');
  }, 60_000);
});
