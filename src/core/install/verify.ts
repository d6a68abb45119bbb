// Drift between a target folder and its lock file, read only: per entry, the files whose bytes differ from the sha256
// the lock pins, those gone and those added, and whether the library moved on from the pinned content. Nothing in the
// target is followed out of it: links there are reported, except a symlink entry's own link into this library's store.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { InstallVerifyRequest, InstallVerifyResult, VerifiedEntry } from '../../shared/install';
import type { InstallContext } from './install';
import { foreignDirs, listTree, type Tree } from './installed-state';
import { isStoreLink } from './library-package';
import { lockedSkill } from './locked-skill';
import { LOCK_NAME, lockPath, readLock, type LockEntry } from './lock-file';
import { resolveTargetDir, type TargetPlaces } from './targets';

/** The folder whose files the entry's hashes describe, or why it cannot be read from inside the target. */
async function entryRoot(
  ctx: InstallContext,
  where: string,
  entry: LockEntry,
): Promise<{ root: string } | { problem: string }> {
  const stat = await fsp.lstat(where);
  if (entry.mode === 'copy') {
    if (stat.isSymbolicLink()) return { problem: 'it is a link now, not the copied folder; not followed' };
    return stat.isDirectory() ? { root: where } : { problem: 'it is no longer a folder' };
  }
  if (!stat.isSymbolicLink()) return { problem: 'a folder or file replaced the link' };
  const to = await fsp.readlink(where);
  if (to !== entry.linkTo) return { problem: `the link now points to ${to}; not followed` };
  if (!isStoreLink(ctx, entry))
    return { problem: "its lock entry names a link outside this library's package store; not followed" };
  const store = await fsp.lstat(to).catch(() => null);
  return store?.isDirectory() ? { root: to } : { problem: 'the package it links to is gone from the store' };
}

/** The tree the lock describes: its files, and the folders they sit in. */
function lockedTree(entry: LockEntry): Tree {
  const files = new Map(entry.files.map((f) => [f.path, f.sha256]));
  const dirs = new Set<string>();
  for (const f of entry.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return { files, dirs: [...dirs] };
}

async function verifyEntry(
  ctx: InstallContext,
  targetDir: string,
  folder: string,
  entry: LockEntry,
): Promise<VerifiedEntry> {
  const result: VerifiedEntry = {
    folder,
    skill: entry.skill,
    skillId: entry.skillId,
    set: entry.set,
    mode: entry.mode,
    changed: [],
    missing: [],
    extra: [],
    folderMissing: false,
    problem: null,
    library: lockedSkill(ctx, entry).state,
    drift: false,
  };
  // The lock's checks made folder one plain name inside the target.
  const where = path.join(targetDir, folder);
  if (!(await fsp.lstat(where).catch(() => null))) {
    result.folderMissing = true;
    result.missing = entry.files.map((f) => f.path);
    result.drift = true;
    return result;
  }
  const root = await entryRoot(ctx, where, entry);
  if ('problem' in root) {
    result.problem = root.problem;
    result.drift = true;
    return result;
  }
  const now = await listTree(root.root);
  const locked = lockedTree(entry);
  for (const [file, sha] of locked.files) {
    const found = now.files.get(file);
    if (found === undefined) result.missing.push(file);
    else if (found !== sha) result.changed.push(file);
  }
  result.extra = [...now.files.keys()].filter((p) => !locked.files.has(p));
  result.extra.push(...foreignDirs(now, locked, result.extra));
  result.extra.sort();
  result.drift = result.changed.length + result.missing.length + result.extra.length > 0;
  return result;
}

export async function verifyInstall(
  ctx: InstallContext,
  req: InstallVerifyRequest,
  places: TargetPlaces = {},
): Promise<InstallVerifyResult> {
  const targetDir = resolveTargetDir(req.target, {
    ...places,
    projectDir: req.projectDir ?? places.projectDir,
  });
  const lockFile = lockPath(targetDir);
  const locked = (await fsp.lstat(lockFile).catch(() => null)) !== null;
  // readLock refuses a lock that is a link or names anything outside the target, before anything is read.
  const lock = await readLock(targetDir, ctx.paths.dbFile);
  const entries: VerifiedEntry[] = [];
  for (const [folder, entry] of Object.entries(lock.entries))
    entries.push(await verifyEntry(ctx, targetDir, folder, entry));
  const listed = await fsp.readdir(targetDir, { withFileTypes: true }).catch(() => []);
  const unmanaged = listed
    .filter(
      (d) => (d.isDirectory() || d.isSymbolicLink()) && !(d.name in lock.entries) && d.name !== LOCK_NAME,
    )
    .map((d) => d.name)
    .sort();
  return { targetDir, lockFile, locked, clean: entries.every((e) => !e.drift), entries, unmanaged };
}
