// The profile, install and uninstall commands of the real CLI on a real library file and a temporary HOME.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-profiles-'));
  mkdirSync(path.join(dir, 'home'));
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
  return runCli(path.join(dir, 'data'), args, { HOME: path.join(dir, 'home') });
}

describe('CLI profiles and installs', () => {
  it('creates a filter profile, installs it into ~/.claude/skills, and uninstalls it', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    const created = await cli('--json', 'profile', 'create', 'objects', '--filter', 'name=object');
    expect(created.code, created.stderr).toBe(0);
    const { profile } = JSON.parse(created.stdout) as { profile: { skills: { name: string }[] } };
    expect(profile.skills.map((s) => s.name)).toEqual(['cool-object', 'heat-object']);

    const installed = await cli('install', '--profile', 'objects', '--target', 'claude', '--mode', 'copy');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/add +cool-object/);
    const skills = path.join(dir, 'home', '.claude', 'skills');
    expect(existsSync(path.join(skills, 'heat-object', 'SKILL.md'))).toBe(true);

    const budget = await cli(
      'profile',
      'budget',
      'objects',
      '--budget-chars',
      '11',
      '--out',
      path.join(dir, 'l.txt'),
    );
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.stdout).toMatch(
      /claude: listing 11 of 11 characters \(the agent's budget; \d+ with nothing cut\); each entry is cut at 1,536 characters; 1 entry shown by name only, 1 entry dropped\.[\s\S]*name-only +cool-object[\s\S]*dropped +heat-object/,
    );
    expect(existsSync(path.join(dir, 'l.txt'))).toBe(true);
    const roomy = await cli(
      'profile',
      'budget',
      'objects',
      '--budget-chars',
      '8000',
      '--out',
      path.join(dir, 'm.txt'),
    );
    expect(roomy.stdout).toMatch(/listing \d+ of 8,000 characters .*; nothing cut or dropped\./);

    const page = await cli('list', '--limit', '2');
    expect(page.stdout).toContain('2 of 3 (--limit N, --offset N for more)');
    const all = await cli('list');
    expect(all.stdout).toMatch(/^3 of 3$/m);

    const removed = await cli('uninstall', '--target', 'claude', '--profile', 'objects');
    expect(removed.code, removed.stderr).toBe(0);
    expect(readdirSync(skills)).toEqual([]);

    const unknown = await cli('install', '--profile', 'nope', '--target', 'claude');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/error NOT_FOUND: No profile named "nope"/);
  }, 120_000);

  it('exits 1 naming a clash, installs the rest, and reads a relative --project from where it runs', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    const project = path.join(dir, 'project');
    const skills = path.join(project, '.claude', 'skills');
    mkdirSync(path.join(skills, 'heat-object'), { recursive: true });
    writeFileSync(path.join(skills, 'heat-object', 'SKILL.md'), 'mine');
    // The CLI runs in the repository root; the relative path is relative to it, as a user typing it means.
    const relative = path.relative(repoRoot, project);
    const r = await cli(
      'install',
      'heat-object',
      'cool-object',
      '--target',
      'claude-project',
      '--project',
      relative,
      '--mode',
      'copy',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/clash +heat-object — the target already has a skill in this folder/);
    expect(r.stderr).toMatch(
      /error CONFLICT: a clash left as it is \(heat-object\); nothing was overwritten/,
    );
    expect(readFileSync(path.join(skills, 'heat-object', 'SKILL.md'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(skills, 'cool-object', 'SKILL.md'))).toBe(true);
    const json = await cli(
      '--json',
      'install',
      'cool-object',
      '--target',
      'claude-project',
      '--project',
      project,
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ changes: [{ folder: 'cool-object', action: 'update' }] });
  }, 120_000);
});
