// A lock file is a claim made by whoever could write the target folder (a cloned repository ships
// .claude/skills/.skill-curator-lock.json): entries that reach outside the target are refused, and nothing is removed
// or replaced unless it is byte for byte the library's package the entry names — never on the lock's own hashes.
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installSkills, LOCK_NAME, uninstallSkills, type InstallContext } from '../../src/core/install';
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
let project: string;
let target: string;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const heat = (): { id: number; hash: string } =>
  lib.db.prepare("SELECT id, content_hash AS hash FROM skills WHERE name = 'heat-object'").get() as {
    id: number;
    hash: string;
  };
const claudeProject = { target: 'claude-project' } as const;
const uninstall = (dryRun = false) =>
  uninstallSkills(ctx, { ...claudeProject, projectDir: project, dryRun }, { home: lib.dir });
const installHeat = (dryRun = false) =>
  installSkills(
    ctx,
    { ...claudeProject, projectDir: project, skillIds: [heat().id], mode: 'copy', dryRun },
    { home: lib.dir },
  );

/** An entry as Skill Curator writes one, for the library's heat-object unless told otherwise. */
function entry(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    skill: 'heat-object',
    skillId: heat().id,
    contentHash: heat().hash,
    mode: 'copy',
    set: 'skills',
    files: [],
    installedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
const lockText = (entries: Record<string, unknown>): string =>
  JSON.stringify({ format: 'skill-curator-install/1', library: lib.dbFile, entries }, null, 2);
const shipLock = (text: string): void => {
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, LOCK_NAME), text);
};
const files = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort();

beforeEach(async () => {
  lib = tempLibrary();
  ctx = {
    db: lib.db,
    clock: lib.deps.clock,
    paths: { dataDir: path.join(lib.dir, 'data'), dbFile: lib.dbFile },
  };
  const root = path.join(lib.dir, 'src');
  writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object.'), {
    'scripts/heat.sh': '#!/bin/sh\necho heat\n',
  });
  await importSource(lib.deps, { path: root }, testJob());
  project = path.join(lib.dir, 'project');
  target = path.join(project, '.claude', 'skills');
});
afterEach(() => lib.close());

describe('a lock file shipped by someone else', () => {
  it('refuses entries that are not one plain folder inside the target, and removes nothing outside it', async () => {
    // Beside the target: a folder whose file the lock lists with its real hash, and an empty tree `..` reaches.
    const victim = path.join(project, '.claude', 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(path.join(victim, 'notes.md'), 'my notes');
    mkdirSync(path.join(project, '.claude', 'empty', 'deeper'), { recursive: true });
    const listed = [{ path: 'notes.md', sha256: sha('my notes') }];
    for (const folder of ['..', '../victim', victim, 'a/b', 'a\\b', '.', '']) {
      shipLock(lockText({ [folder]: entry({ files: listed }) }));
      for (const run of [() => uninstall(true), () => uninstall(), () => installHeat()])
        await expect(run()).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          message: expect.stringContaining(`entry ${JSON.stringify(folder)} is not a plain folder name`),
        });
    }
    expect(readFileSync(path.join(victim, 'notes.md'), 'utf8')).toBe('my notes');
    expect(existsSync(path.join(project, '.claude', 'empty', 'deeper'))).toBe(true);
    expect(readdirSync(target)).toEqual([LOCK_NAME]);
  });

  it('refuses file paths that climb or are absolute, and an entry or key given twice', async () => {
    for (const p of ['../victim/notes.md', '/etc/passwd', 'scripts/../../x']) {
      shipLock(lockText({ 'heat-object': entry({ files: [{ path: p, sha256: sha('x') }] }) }));
      await expect(uninstall()).rejects.toThrow(/lists a file that is not a plain path inside its folder/);
    }
    const one = JSON.stringify(entry());
    shipLock(
      `{"format":"skill-curator-install/1","library":"x","entries":{"heat-object":${one},"heat-object":${one}}}`,
    );
    await expect(uninstall()).rejects.toThrow(/names "heat-object" twice; fix or remove it by hand/);
    shipLock(lockText({ 'heat-object': entry(), 'heat-object-2': entry() }));
    await expect(installHeat()).rejects.toThrow(
      /entries "heat-object" and "heat-object-2" both claim skill #\d+ for skills/,
    );
  });

  it('refuses a lock file that is a link, and leaves what it links to alone', async () => {
    // A real lock from another target, reached through a link in this one.
    const elsewhere = path.join(lib.dir, 'elsewhere');
    await installSkills(ctx, { target: elsewhere, skillIds: [heat().id], mode: 'copy' }, { home: lib.dir });
    const before = readFileSync(path.join(elsewhere, LOCK_NAME), 'utf8');
    mkdirSync(target, { recursive: true });
    symlinkSync(path.join(elsewhere, LOCK_NAME), path.join(target, LOCK_NAME));
    await expect(uninstall()).rejects.toThrow(/is a link, not the lock file Skill Curator writes/);
    await expect(installHeat()).rejects.toThrow(/is a link/);
    expect(readFileSync(path.join(elsewhere, LOCK_NAME), 'utf8')).toBe(before);
    expect(files(path.join(elsewhere, 'heat-object'))).toEqual(['SKILL.md', 'scripts', 'scripts/heat.sh']);
  });

  it("keeps the user's own files that a lock lists with their real hashes, in uninstall, its dry run and install", async () => {
    const mine = path.join(target, 'my-notes');
    mkdirSync(mine, { recursive: true });
    writeFileSync(path.join(mine, 'SKILL.md'), 'my skill');
    writeFileSync(path.join(mine, 'notes.md'), 'my notes');
    const listed = [
      { path: 'SKILL.md', sha256: sha('my skill') },
      { path: 'notes.md', sha256: sha('my notes') },
    ];
    shipLock(lockText({ 'my-notes': entry({ files: listed }) }));
    const dry = await uninstall(true);
    expect(dry.removed).toEqual([]);
    expect(dry.kept).toEqual([
      { folder: 'my-notes', reason: expect.stringMatching(/kept files not installed.*SKILL.md, notes.md/) },
    ]);
    const real = await uninstall();
    expect(real.removed).toEqual([]);
    expect(files(mine)).toEqual(['SKILL.md', 'notes.md']);

    // Content the library does not hold: nothing to compare with, so nothing is replaced or removed.
    const unknown = entry({ files: listed, contentHash: 'a'.repeat(64) });
    shipLock(lockText({ 'my-notes': unknown }));
    const install = await installHeat();
    expect(install.changes.find((c) => c.folder === 'my-notes')).toMatchObject({
      action: 'clash',
      reason: expect.stringMatching(/the library holds no package for skill #\d+ at content aaaaaaaaaaaa/),
    });
    shipLock(lockText({ 'my-notes': unknown }));
    expect((await uninstall()).kept).toEqual([
      { folder: 'my-notes', reason: expect.stringMatching(/holds no package.*; left in place$/) },
    ]);
    expect(files(mine)).toEqual(['SKILL.md', 'notes.md']);
    expect(readFileSync(path.join(mine, 'notes.md'), 'utf8')).toBe('my notes');
  });

  it('leaves an entry folder that is a link, and a link the lock says points outside the package store', async () => {
    // Outside the target: a copy of the library's package, so every hash would match.
    const outside = path.join(lib.dir, 'outside', 'heat-object');
    await installSkills(ctx, { target: path.dirname(outside), skillIds: [heat().id], mode: 'copy' }, {});
    mkdirSync(target, { recursive: true });
    symlinkSync(outside, path.join(target, 'heat-object'), 'dir');
    shipLock(lockText({ 'heat-object': entry() }));
    expect((await uninstall()).kept).toEqual([
      { folder: 'heat-object', reason: 'it is no longer a folder; left in place' },
    ]);

    symlinkSync(outside, path.join(target, 'linked'), 'dir');
    shipLock(lockText({ linked: entry({ mode: 'symlink', linkTo: outside }) }));
    const dry = await uninstall(true);
    expect(dry.removed).toEqual([]);
    expect(dry.kept).toEqual([
      {
        folder: 'linked',
        reason: "its lock entry names a link outside this library's package store; left in place",
      },
    ]);
    await uninstall();
    expect(lstatSync(path.join(target, 'linked')).isSymbolicLink()).toBe(true);
    expect(files(outside)).toEqual(['SKILL.md', 'scripts', 'scripts/heat.sh']);
  });

  it('walks an entry folder without following links inside it', async () => {
    const outside = path.join(lib.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'heat.sh'), '#!/bin/sh\necho heat\n'); // the package's bytes
    const folder = path.join(target, 'heat-object');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      readFileSync(path.join(lib.dir, 'src/heat-object/SKILL.md')),
    );
    symlinkSync(outside, path.join(folder, 'scripts'), 'dir');
    shipLock(lockText({ 'heat-object': entry() }));
    const r = await uninstall();
    expect(r.kept).toEqual([
      { folder: 'heat-object', reason: 'kept files not installed or changed since: scripts' },
    ]);
    expect(readdirSync(outside)).toEqual(['heat.sh']);
    expect(lstatSync(path.join(folder, 'scripts')).isSymbolicLink()).toBe(true);
  });

  it('still removes exactly what it installed, by copy or link, after the library moved on', async () => {
    await installHeat();
    const linked = path.join(lib.dir, 'linked');
    await installSkills(ctx, { target: linked, skillIds: [heat().id], mode: 'symlink' }, {});
    writeSkill(path.join(lib.dir, 'src'), 'heat-object', skillMd('heat-object', 'Heats, gently.'));
    await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    expect(await uninstall(true)).toMatchObject({ removed: ['heat-object'], kept: [] });
    expect((await uninstall()).removed).toEqual(['heat-object']);
    expect(readdirSync(target)).toEqual([]);
    const unlinked = await uninstallSkills(ctx, { target: linked }, {});
    expect(unlinked).toMatchObject({ removed: ['heat-object'], kept: [] });
    expect(readdirSync(linked)).toEqual([]);
  });
});
