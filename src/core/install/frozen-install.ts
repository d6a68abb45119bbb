// `install --frozen`: what the target's lock file names, exactly (the same skills, modes and content digests), or
// nothing at all. Every difference is found before anything is written, and all of them are named in the refusal, as
// `npm ci` does with a package-lock that no longer matches.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallChange, InstallRequest, InstallResult } from '../../shared/install';
import type { InstallContext } from './install';
import { driftOf } from './installed-state';
import type { LibrarySkill } from './library-package';
import { lockedSkill } from './locked-skill';
import { lockPath, readLock, writeLock, type LockEntry } from './lock-file';
import { build } from './package-build';
import { selectionOf } from './selection';

const short = (hash: string): string => hash.slice(0, 12);

interface Locked {
  folder: string;
  entry: LockEntry;
  skill: LibrarySkill;
  change: InstallChange;
}

const sameFiles = (a: LockEntry['files'], b: LockEntry['files']): boolean => {
  const pinned = new Map(a.map((f) => [f.path, f.sha256]));
  return a.length === b.length && b.every((f) => pinned.get(f.path) === f.sha256);
};

/** The lock's entries this request reproduces, each with its library skill, and every difference found. */
async function check(
  ctx: InstallContext,
  targetDir: string,
  req: InstallRequest,
): Promise<{
  lock: Awaited<ReturnType<typeof readLock>>;
  set: string;
  locked: Locked[];
  differences: string[];
}> {
  const lock = await readLock(targetDir, ctx.paths.dbFile);
  const differences: string[] = [];
  let entries = Object.entries(lock.entries);
  if (entries.length === 0)
    throw new CuratorError(
      'NOT_FOUND',
      `${lockPath(targetDir)} does not exist or names nothing; a frozen install installs what a lock file names (install once without --frozen to write one)`,
    );
  let set = 'every set in the lock';
  const selection =
    req.profile !== undefined || (Array.isArray(req.skillIds) && req.skillIds.length > 0)
      ? selectionOf(ctx, req)
      : null;
  if (selection) {
    set = selection.set;
    entries = entries.filter(([, e]) => e.set === selection.set);
    if (entries.length === 0) differences.push(`the lock names nothing for ${selection.set}`);
  }
  const locked: Locked[] = [];
  for (const [folder, entry] of entries) {
    if (req.mode !== undefined && entry.mode !== req.mode)
      differences.push(`${folder} is locked as a ${entry.mode}, not a ${req.mode}`);
    const { skill, state } = lockedSkill(ctx, entry);
    if (state === 'gone' || !skill) {
      differences.push(`${folder}: the library has no skill "${entry.skill}" (#${entry.skillId})`);
      continue;
    }
    if (state === 'moved-on') {
      differences.push(
        `${folder}: the library's "${skill.name}" is at content ${short(skill.contentHash)}, the lock pins ${short(entry.contentHash)}`,
      );
      continue;
    }
    // A lock from another library names its own ids; the comparison is with this library's skill at that content.
    const here = { ...entry, skillId: skill.id };
    const drift = await driftOf(ctx, targetDir, folder, here);
    const base = { folder, skill: entry.skill, skillId: skill.id };
    if (drift === null) locked.push({ folder, entry: here, skill, change: { ...base, action: 'unchanged' } });
    else if (drift === 'it is gone from the target')
      locked.push({ folder, entry: here, skill, change: { ...base, action: 'add', reason: 'as locked' } });
    else differences.push(`${folder}: ${drift}`);
  }
  if (selection) {
    const lockedIds = new Set(locked.map((l) => l.skill.id));
    for (const s of selection.skills)
      if (!lockedIds.has(s.id) && !entries.some(([, e]) => e.skillId === s.id))
        differences.push(`${selection.set} holds "${s.name}" (#${s.id}), which the lock does not name`);
    for (const l of locked)
      if (!selection.skills.some((s) => s.id === l.skill.id))
        differences.push(`the lock names "${l.entry.skill}" for ${selection.set}, which no longer holds it`);
  }
  return { lock, set, locked, differences };
}

const refusal = (targetDir: string, differences: string[]): CuratorError =>
  new CuratorError(
    'CONFLICT',
    `Frozen install refused, nothing was written: ${differences.length === 1 ? 'one difference' : `${differences.length} differences`} between ${lockPath(targetDir)} and the library or the target:\n${differences.map((d) => `  - ${d}`).join('\n')}`,
  );

export async function installFrozen(
  ctx: InstallContext,
  req: InstallRequest,
  targetDir: string,
): Promise<InstallResult> {
  const { lock, set, locked, differences } = await check(ctx, targetDir, req);
  if (differences.length > 0) throw refusal(targetDir, differences);
  const result: InstallResult = {
    targetDir,
    lockFile: lockPath(targetDir),
    mode: 'as locked',
    dryRun: req.dryRun === true,
    frozen: true,
    set,
    changes: locked.map((l) => l.change),
    missing: [],
  };
  const adds = locked.filter((l) => l.change.action === 'add');
  if (result.dryRun || adds.length === 0) return result;

  await fsp.mkdir(targetDir, { recursive: true });
  const staging = await fsp.mkdtemp(path.join(targetDir, '.skill-curator-staging-'));
  try {
    // Every package is built and compared with the lock's hashes before the first one is placed.
    const built = [];
    for (const l of adds) {
      const b = await build(ctx, l.skill, l.entry.mode, staging);
      if (!sameFiles(l.entry.files, b.files))
        differences.push(
          `${l.folder}: the library's package at content ${short(l.skill.contentHash)} is not the files the lock pins`,
        );
      built.push({ ...l, built: b });
    }
    if (differences.length > 0) throw refusal(targetDir, differences);
    for (const l of built) {
      await fsp.rename(l.built.placed, path.join(targetDir, l.folder));
      // The pinned entry stays as it was, but for this library's id and its own package store's path.
      lock.entries[l.folder] = {
        ...l.entry,
        ...(l.built.linkTo ? { linkTo: l.built.linkTo } : {}),
        files: l.built.files,
      };
      await writeLock(targetDir, lock);
    }
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return result;
}
