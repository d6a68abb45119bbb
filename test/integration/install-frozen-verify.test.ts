// Installs that reproduce: `--frozen` installs exactly what the target's lock file names or writes nothing, and
// `install verify` reports every way the target drifted from its lock, changing nothing.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installSkills, LOCK_NAME, verifyInstall, type InstallContext } from '../../src/core/install';
import { addToProfile, createProfile } from '../../src/core/profiles';
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
const lockText = (): string => readFileSync(path.join(skillsDir(), LOCK_NAME), 'utf8');
const install = (over: Record<string, unknown> = {}) =>
  installSkills(ctx, { profile: 'kitchen', target: 'claude', mode: 'copy', ...over }, { home });
const verify = () => verifyInstall(ctx, { target: 'claude' }, { home });
const tree = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort();

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
  });
  writeSkill(root, 'cool-object', skillMd('cool-object', 'Cools an object.'));
  writeSkill(root, 'put-object', skillMd('put-object', 'Puts an object.'));
  await importSource(lib.deps, { path: root }, testJob());
  createProfile(lib.deps, { name: 'kitchen', skillIds: [idOf('heat-object'), idOf('cool-object')] });
});
afterEach(() => lib.close());

describe('install --frozen', () => {
  it('restores what the lock names, as locked, and leaves the lock as it was', async () => {
    await install();
    await installSkills(ctx, { skillIds: [idOf('put-object')], target: 'claude' }, { home }); // a symlink
    const before = lockText();
    rmSync(path.join(skillsDir(), 'heat-object'), { recursive: true });
    unlinkSync(path.join(skillsDir(), 'put-object'));

    const dry = await installSkills(ctx, { target: 'claude', frozen: true, dryRun: true }, { home });
    expect(dry.changes.map((c) => `${c.folder}:${c.action}`).sort()).toEqual([
      'cool-object:unchanged',
      'heat-object:add',
      'put-object:add',
    ]);
    expect(existsSync(path.join(skillsDir(), 'heat-object'))).toBe(false);

    const r = await installSkills(ctx, { target: 'claude', frozen: true }, { home });
    expect(r).toMatchObject({ frozen: true, mode: 'as locked', set: 'every set in the lock' });
    expect(readFileSync(path.join(skillsDir(), 'heat-object/scripts/heat.sh'), 'utf8')).toBe(
      '#!/bin/sh\necho heat\n',
    );
    expect(readFileSync(path.join(skillsDir(), 'put-object/SKILL.md'), 'utf8')).toContain('Puts an object.');
    expect(lockText()).toBe(before);
    expect((await verify()).clean).toBe(true);

    // One set, named: it must be the set the lock names, in the modes it names.
    const kitchen = await install({ frozen: true, mode: undefined });
    expect(kitchen.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('refuses a skill changed in the library since the lock, naming it, and writes nothing', async () => {
    await install();
    rmSync(path.join(skillsDir(), 'cool-object'), { recursive: true });
    writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object, carefully.'), {
      'scripts/heat.sh': '#!/bin/sh\necho heat gently\n',
    });
    await importSource(lib.deps, { path: root }, testJob());
    const before = lockText();
    const treeBefore = tree(skillsDir());
    const refused = installSkills(ctx, { target: 'claude', frozen: true }, { home });
    await expect(refused).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(installSkills(ctx, { target: 'claude', frozen: true }, { home })).rejects.toThrow(
      /Frozen install refused, nothing was written: one difference[\s\S]*- heat-object: the library's "heat-object" is at content [0-9a-f]{12}, the lock pins [0-9a-f]{12}/,
    );
    // Not even the skill that is still as locked was restored.
    expect(tree(skillsDir())).toEqual(treeBefore);
    expect(lockText()).toBe(before);
    expect(readFileSync(path.join(skillsDir(), 'heat-object/scripts/heat.sh'), 'utf8')).toBe(
      '#!/bin/sh\necho heat\n',
    );
  });

  it('names every difference: a skill gone from the library, a set that differs, a mode, a hand edit', async () => {
    await install();
    writeFileSync(path.join(skillsDir(), 'heat-object', 'SKILL.md'), 'edited by hand');
    addToProfile(lib.deps, 'kitchen', [idOf('put-object')]);
    lib.db.prepare('DELETE FROM skills WHERE id = ?').run(idOf('cool-object'));
    const attempt = install({ frozen: true, mode: 'symlink' });
    await expect(attempt).rejects.toThrow(/\d differences/);
    const message = await install({ frozen: true, mode: 'symlink' }).catch((e: Error) => e.message);
    expect(message).toContain('cool-object is locked as a copy, not a symlink');
    expect(message).toContain('cool-object: the library has no skill "cool-object"');
    expect(message).toMatch(/heat-object: changed in the target since install \(files changed: SKILL.md\)/);
    expect(message).toMatch(/profile:kitchen holds "put-object" \(#\d+\), which the lock does not name/);
    expect(readFileSync(path.join(skillsDir(), 'heat-object', 'SKILL.md'), 'utf8')).toBe('edited by hand');
  });

  it('refuses a target with no lock file', async () => {
    await expect(installSkills(ctx, { target: 'claude', frozen: true }, { home })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(
        /does not exist or names nothing; a frozen install installs what a lock/,
      ),
    });
    expect(existsSync(skillsDir())).toBe(false);
  });
});

describe('install verify', () => {
  it('reports clean on a fresh install, copy and symlink, and names unmanaged folders apart from drift', async () => {
    await install();
    await installSkills(ctx, { skillIds: [idOf('put-object')], target: 'claude' }, { home });
    mkdirSync(path.join(skillsDir(), 'my-own-skill'));
    const r = await verify();
    expect(r).toMatchObject({ locked: true, clean: true, unmanaged: ['my-own-skill'] });
    expect(r.entries.map((e) => [e.folder, e.drift, e.library])).toEqual([
      ['cool-object', false, 'same'],
      ['heat-object', false, 'same'],
      ['put-object', false, 'same'],
    ]);
  });

  it('finds a hand-edited file, a deleted file, an extra file and a deleted folder, and changes nothing', async () => {
    await install();
    await installSkills(ctx, { skillIds: [idOf('put-object')], target: 'claude' }, { home });
    const heat = path.join(skillsDir(), 'heat-object');
    writeFileSync(path.join(heat, 'SKILL.md'), 'edited by hand');
    unlinkSync(path.join(heat, 'scripts', 'heat.sh'));
    writeFileSync(path.join(heat, 'notes.md'), 'mine');
    mkdirSync(path.join(heat, 'empty'));
    rmSync(path.join(skillsDir(), 'cool-object'), { recursive: true });
    // Edited through the link: the package store's file no longer has the bytes the lock pins.
    writeFileSync(path.join(skillsDir(), 'put-object', 'SKILL.md'), 'edited through the link');
    const before = tree(skillsDir());
    const r = await verify();
    expect(r.clean).toBe(false);
    const byFolder = Object.fromEntries(r.entries.map((e) => [e.folder, e]));
    expect(byFolder['heat-object']).toMatchObject({
      changed: ['SKILL.md'],
      missing: ['scripts/heat.sh'],
      extra: ['empty', 'notes.md'],
      drift: true,
    });
    expect(byFolder['cool-object']).toMatchObject({
      folderMissing: true,
      missing: ['SKILL.md'],
      drift: true,
    });
    expect(byFolder['put-object']).toMatchObject({ changed: ['SKILL.md'], drift: true });
    expect(tree(skillsDir())).toEqual(before);
  });

  it('says when the library moved on, without calling it drift', async () => {
    await install();
    writeSkill(root, 'cool-object', skillMd('cool-object', 'Cools an object, slowly.'));
    await importSource(lib.deps, { path: root }, testJob());
    const r = await verify();
    expect(r.clean).toBe(true);
    expect(r.entries.find((e) => e.folder === 'cool-object')).toMatchObject({
      library: 'moved-on',
      drift: false,
    });
  });

  it('never follows a link out of the target', async () => {
    await install();
    const outside = path.join(lib.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'heat.sh'), '#!/bin/sh\necho heat\n');
    const scripts = path.join(skillsDir(), 'heat-object', 'scripts');
    rmSync(scripts, { recursive: true });
    symlinkSync(outside, scripts, 'dir');
    rmSync(path.join(skillsDir(), 'cool-object'), { recursive: true });
    symlinkSync(path.join(lib.dir, 'src', 'cool-object'), path.join(skillsDir(), 'cool-object'), 'dir');
    const r = await verify();
    const byFolder = Object.fromEntries(r.entries.map((e) => [e.folder, e]));
    expect(byFolder['heat-object']).toMatchObject({ missing: ['scripts/heat.sh'], extra: ['scripts'] });
    expect(byFolder['cool-object']).toMatchObject({
      problem: 'it is a link now, not the copied folder; not followed',
      drift: true,
    });
  });

  it('refuses a hostile lock as install does', async () => {
    mkdirSync(skillsDir(), { recursive: true });
    writeFileSync(
      path.join(skillsDir(), LOCK_NAME),
      JSON.stringify({ format: 'skill-curator-install/1', library: 'x', entries: { '..': {} } }),
    );
    await expect(verify()).rejects.toThrow(/entry "\.\." is not a plain folder name/);
    const none = await verifyInstall(ctx, { target: path.join(lib.dir, 'empty') }, { home });
    expect(none).toMatchObject({ locked: false, clean: true, entries: [], unmanaged: [] });
  });
});
