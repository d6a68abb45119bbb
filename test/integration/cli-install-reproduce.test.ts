// The real CLI on a real library file and a temporary HOME: `install --frozen`, `install verify` and
// `profile budget --overrides / --write-overrides`, with their exit codes.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;
const skillText = (name: string, says = `Does ${name}.`): string =>
  `---\nname: ${name}\ndescription: ${says}\n---\n\nBody of ${name}.\n`;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-reproduce-'));
  mkdirSync(path.join(dir, 'home'));
  for (const name of ['heat-object', 'cool-object']) {
    mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), skillText(name));
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): Promise<CliResult> {
  return runCli(path.join(dir, 'data'), args, { HOME: path.join(dir, 'home') });
}

describe('CLI installs that reproduce', () => {
  it('verifies a target against its lock, and installs --frozen only while the library holds the locked content', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    const skills = path.join(dir, 'home', '.claude', 'skills');
    expect(
      (await cli('install', 'heat-object', 'cool-object', '--target', 'claude', '--mode', 'copy')).code,
    ).toBe(0);

    const clean = await cli('install', 'verify', '--target', 'claude');
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/skills: clean, 2 skill\(s\) as the lock says/);

    writeFileSync(path.join(skills, 'heat-object', 'SKILL.md'), 'edited by hand');
    writeFileSync(path.join(skills, 'cool-object', 'notes.md'), 'mine');
    const drift = await cli('install', 'verify', '--target', 'claude');
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/drift in 2 of 2 skill\(s\)/);
    expect(drift.stdout).toMatch(/extra +cool-object: notes.md/);
    expect(drift.stdout).toMatch(/changed +heat-object: SKILL.md/);
    const json = await cli('--json', 'install', 'verify', '--target', 'claude');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ clean: false, locked: true });

    // Put the copy back with --frozen once the hand edits are gone; then change the library and try again.
    rmSync(path.join(skills, 'heat-object'), { recursive: true });
    rmSync(path.join(skills, 'cool-object', 'notes.md'));
    const frozen = await cli('install', '--frozen', '--target', 'claude');
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(frozen.stdout).toMatch(
      /installed into .* \(as locked, every set in the lock, frozen\)\n {2}unchanged cool-object\n {2}add +heat-object — as locked/,
    );

    writeFileSync(
      path.join(dir, 'skills', 'cool-object', 'SKILL.md'),
      skillText('cool-object', 'Cools, slowly.'),
    );
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    rmSync(path.join(skills, 'heat-object'), { recursive: true });
    const lock = readFileSync(path.join(skills, '.skill-curator-lock.json'), 'utf8');
    const refused = await cli('install', '--frozen', '--target', 'claude');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /error CONFLICT: Frozen install refused, nothing was written: one difference .*\n {2}- cool-object: the library's "cool-object" is at content [0-9a-f]{12}, the lock pins [0-9a-f]{12}/,
    );
    expect(readdirSync(skills).sort()).toEqual(['.skill-curator-lock.json', 'cool-object']);
    expect(readFileSync(path.join(skills, '.skill-curator-lock.json'), 'utf8')).toBe(lock);
  }, 120_000);

  it('previews and writes Claude Code skillOverrides into the project settings, keeping what is there', async () => {
    expect((await cli('import', path.join(dir, 'skills'))).code).toBe(0);
    expect((await cli('profile', 'create', 'kitchen', 'heat-object', 'cool-object')).code).toBe(0);
    const project = path.join(dir, 'project');
    const settings = path.join(project, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    const before = '{\n  "model": "opus",\n  "skillOverrides": { "other-skill": "off" }\n}\n';
    writeFileSync(settings, before);
    const args = ['profile', 'budget', 'kitchen', '--budget-chars', '40', '--project', project];

    const preview = await cli(...args, '--overrides', 'project');
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/add +heat-object \[name-only\]: \(none\) → name-only/);
    expect(preview.stdout).toContain('+    "heat-object": "name-only"');
    expect(preview.stdout).toMatch(/a preview: nothing was written/);
    expect(readFileSync(settings, 'utf8')).toBe(before);

    const written = await cli(...args, '--write-overrides', 'project', '--override-mode', 'heat-object=off');
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(`wrote ${settings}`);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({
      model: 'opus',
      skillOverrides: { 'other-skill': 'off', 'heat-object': 'off' },
    });

    writeFileSync(settings, '{"model": "opus", "model": "sonnet"}');
    const twice = await cli(...args, '--write-overrides', 'project');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      /error VALIDATION_FAILED: .*settings.json holds the key "model" twice.*nothing was written/,
    );
    expect(readFileSync(settings, 'utf8')).toBe('{"model": "opus", "model": "sonnet"}');
  }, 120_000);
});
