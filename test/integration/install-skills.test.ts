// Installing profiles and selections into agent folders on a temporary HOME: symlink and copy, the lock file, clashes
// with skills already there, re-install after a library change, and uninstall that leaves every foreign file alone.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  installSkills,
  LOCK_NAME,
  previewBudget,
  uninstallSkills,
  type InstallContext,
} from '../../src/core/install';
import { createProfile } from '../../src/core/profiles';
import { importSource } from '../../src/core/skills/index';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let ctx: InstallContext;
let home: string;
let root: string;
const idOf = (name: string): number =>
  lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
const skillsDir = (): string => path.join(home, '.claude', 'skills');
const lock = (
  dir = skillsDir(),
): { entries: Record<string, { skill: string; contentHash: string; mode: string }> } =>
  JSON.parse(readFileSync(path.join(dir, LOCK_NAME), 'utf8'));
const actions = (r: { changes: { folder: string; action: string }[] }): string[] =>
  r.changes.map((c) => `${c.folder}:${c.action}`).sort();

beforeEach(async () => {
  lib = tempLibrary();
  home = path.join(lib.dir, 'home');
  mkdirSync(home);
  ctx = {
    db: lib.db,
    clock: lib.deps.clock,
    paths: { dataDir: path.join(lib.dir, 'data'), dbFile: lib.dbFile },
  };
  root = path.join(lib.dir, 'src');
  writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object.'), {
    'scripts/heat.sh': '#!/bin/sh\necho heat\n',
    'references/notes.md': 'Microwave notes.',
  });
  writeSkill(root, 'cool-object', skillMd('cool-object', 'Cools an object.'));
  writeSkill(root, 'put-object', skillMd('put-object', 'Puts an object.'));
  await importSource(lib.deps, { path: root }, testJob());
  createProfile(lib.deps, { name: 'kitchen', skillIds: [idOf('heat-object'), idOf('cool-object')] });
});
afterEach(() => lib.close());

describe('install into agent folders', () => {
  it('copies a profile into ~/.claude/skills with a lock file naming each skill and its library digest', async () => {
    const r = await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    expect(r.targetDir).toBe(skillsDir());
    expect(actions(r)).toEqual(['cool-object:add', 'heat-object:add']);
    expect(readFileSync(path.join(skillsDir(), 'heat-object/scripts/heat.sh'), 'utf8')).toBe(
      '#!/bin/sh\necho heat\n',
    );
    expect(lstatSync(path.join(skillsDir(), 'heat-object')).isDirectory()).toBe(true);
    const digest = lib.db
      .prepare('SELECT content_hash FROM skills WHERE id = ?')
      .pluck()
      .get(idOf('heat-object'));
    expect(lock().entries['heat-object']).toMatchObject({
      skill: 'heat-object',
      contentHash: digest,
      mode: 'copy',
    });
    // Staging folders never stay behind.
    expect(readdirSync(skillsDir()).sort()).toEqual([LOCK_NAME, 'cool-object', 'heat-object']);
  });

  it('links a selection into the project and Codex folders by symlink to the library package store', async () => {
    const project = path.join(lib.dir, 'project');
    const r = await installSkills(
      ctx,
      { skillIds: [idOf('put-object')], target: 'claude-project', projectDir: project },
      { home },
    );
    expect(r.targetDir).toBe(path.join(project, '.claude', 'skills'));
    const link = path.join(r.targetDir, 'put-object');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link).startsWith(path.join(ctx.paths.dataDir, 'installed-packages'))).toBe(true);
    expect(readFileSync(path.join(link, 'SKILL.md'), 'utf8')).toContain('Puts an object.');
    const codex = await installSkills(ctx, { profile: 'kitchen', target: 'codex' }, { home });
    expect(codex.targetDir).toBe(path.join(home, '.codex', 'skills'));
    expect(lstatSync(path.join(codex.targetDir, 'cool-object')).isSymbolicLink()).toBe(true);
  });

  it('shows a clash with a skill already in the target and never overwrites it', async () => {
    mkdirSync(path.join(skillsDir(), 'heat-object'), { recursive: true });
    writeFileSync(path.join(skillsDir(), 'heat-object', 'SKILL.md'), 'mine');
    const r = await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    expect(r.changes.find((c) => c.folder === 'heat-object')).toMatchObject({ action: 'clash' });
    expect(r.changes.find((c) => c.folder === 'heat-object')!.reason).toMatch(/did not install/);
    expect(readFileSync(path.join(skillsDir(), 'heat-object', 'SKILL.md'), 'utf8')).toBe('mine');
    expect(Object.keys(lock().entries)).toEqual(['cool-object']);
  });

  it('re-install updates a skill that changed in the library, reports it, and leaves the rest unchanged', async () => {
    await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object, carefully.'), {
      'scripts/heat.sh': '#!/bin/sh\necho heat gently\n',
    });
    await importSource(lib.deps, { path: root }, testJob());
    const dry = await installSkills(
      ctx,
      { profile: 'kitchen', target: 'claude', mode: 'copy', dryRun: true },
      { home },
    );
    expect(actions(dry)).toEqual(['cool-object:unchanged', 'heat-object:update']);
    expect(readFileSync(path.join(skillsDir(), 'heat-object/SKILL.md'), 'utf8')).not.toContain('carefully');
    const r = await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    expect(actions(r)).toEqual(['cool-object:unchanged', 'heat-object:update']);
    expect(r.changes.find((c) => c.action === 'update')!.reason).toMatch(/changed in the library/);
    expect(readFileSync(path.join(skillsDir(), 'heat-object/SKILL.md'), 'utf8')).toContain('carefully');
    // A skill taken out of the profile is removed on the next install; the switch to symlink is an update.
    lib.db.prepare('DELETE FROM profile_skills WHERE skill_id = ?').run(idOf('cool-object'));
    const again = await installSkills(
      ctx,
      { profile: 'kitchen', target: 'claude', mode: 'symlink' },
      { home },
    );
    expect(actions(again)).toEqual(['cool-object:remove', 'heat-object:update']);
    expect(existsSync(path.join(skillsDir(), 'cool-object'))).toBe(false);
    expect(lstatSync(path.join(skillsDir(), 'heat-object')).isSymbolicLink()).toBe(true);
  });

  it('does not overwrite an installed copy edited by hand', async () => {
    await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    writeFileSync(path.join(skillsDir(), 'cool-object', 'SKILL.md'), 'edited by hand');
    lib.db.prepare("UPDATE skills SET content_hash = 'new' WHERE id = ?").run(idOf('cool-object'));
    const r = await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    expect(r.changes.find((c) => c.folder === 'cool-object')).toMatchObject({ action: 'clash' });
    expect(r.changes.find((c) => c.folder === 'cool-object')!.reason).toMatch(/files changed: SKILL.md/);
    expect(readFileSync(path.join(skillsDir(), 'cool-object', 'SKILL.md'), 'utf8')).toBe('edited by hand');
  });

  it('uninstall removes exactly what it installed and leaves foreign skills and files untouched', async () => {
    mkdirSync(path.join(skillsDir(), 'someone-elses'), { recursive: true });
    writeFileSync(path.join(skillsDir(), 'someone-elses', 'SKILL.md'), 'not ours');
    writeFileSync(path.join(skillsDir(), 'notes.txt'), 'a note');
    await installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy' }, { home });
    await installSkills(ctx, { skillIds: [idOf('put-object')], target: 'claude', mode: 'symlink' }, { home });
    // A file the user dropped into an installed copy stays, with its folder.
    writeFileSync(path.join(skillsDir(), 'heat-object', 'scripts', 'mine.sh'), 'echo mine');
    // The dry run says what would really go: heat-object keeps the user's file, and so its folder.
    const dry = await uninstallSkills(ctx, { target: 'claude', profile: 'kitchen', dryRun: true }, { home });
    expect(dry.removed).toEqual(['cool-object']);
    expect(dry.kept).toEqual([{ folder: 'heat-object', reason: expect.stringMatching(/scripts\/mine.sh/) }]);
    expect(existsSync(path.join(skillsDir(), 'cool-object'))).toBe(true);
    const r = await uninstallSkills(ctx, { target: 'claude', profile: 'kitchen' }, { home });
    expect(r.removed).toEqual(['cool-object']);
    expect(r.kept).toEqual([{ folder: 'heat-object', reason: expect.stringMatching(/scripts\/mine.sh/) }]);
    expect(readdirSync(path.join(skillsDir(), 'heat-object'), { recursive: true }).sort()).toEqual([
      'scripts',
      'scripts/mine.sh',
    ]);
    expect(Object.keys(lock().entries)).toEqual(['put-object']);
    const all = await uninstallSkills(ctx, { target: 'claude' }, { home });
    expect(all.removed).toEqual(['put-object']);
    expect(readdirSync(skillsDir()).sort()).toEqual(['heat-object', 'notes.txt', 'someone-elses']);
    expect(readFileSync(path.join(skillsDir(), 'someone-elses', 'SKILL.md'), 'utf8')).toBe('not ours');
    // The package store the link pointed to is the library's, and stays.
    expect(existsSync(path.join(ctx.paths.dataDir, 'installed-packages'))).toBe(true);
  });

  it('refuses a relative folder, an unknown mode and an unreadable lock file with clear errors', async () => {
    await expect(installSkills(ctx, { profile: 'kitchen', target: 'skills' }, { home })).rejects.toThrow(
      /Unknown target "skills"/,
    );
    await expect(
      installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'hardlink' as never }, { home }),
    ).rejects.toThrow(/Unknown install mode/);
    mkdirSync(skillsDir(), { recursive: true });
    writeFileSync(path.join(skillsDir(), LOCK_NAME), '{oops');
    await expect(installSkills(ctx, { profile: 'kitchen', target: 'claude' }, { home })).rejects.toThrow(
      /not valid JSON/,
    );
    expect(readdirSync(skillsDir())).toEqual([LOCK_NAME]);
  });

  it("previews a profile's listing for an agent, with the locations of the target it would be installed into", () => {
    const p = previewBudget(ctx, { profile: 'kitchen', agent: 'codex' }, { home });
    expect(p.budgetChars).toBe(8000);
    expect(p.maxEntryChars).toBe(1536);
    expect(p.entries.map((e) => [e.name, e.fate])).toEqual([
      ['cool-object', 'full'],
      ['heat-object', 'full'],
    ]);
    expect(p.text).toContain(
      `<location>${path.join(home, '.codex', 'skills', 'cool-object', 'SKILL.md')}</location>`,
    );
    const tight = previewBudget(ctx, { profile: 'kitchen', budgetChars: 22, contextTokens: 1000 }, { home });
    expect(tight.entries.map((e) => e.fate)).toEqual(['name-only', 'name-only']);
    expect(() => previewBudget(ctx, { profile: 'kitchen', budgetFraction: 2 }, { home })).toThrow(
      /budgetFraction must be a number above 0 and at most 1/,
    );
    expect(() => previewBudget(ctx, { profile: 'nope' }, { home })).toThrow(/No profile named "nope"/);
  });
});
