// What is on disk for one lock entry, compared with the library's own package for it (never with the lock's hashes):
// whether it is still exactly what was installed, and removing it without taking anything that was not (a file added
// or changed by hand stays, with its folder). Links are never followed.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { InstallContext } from './install';
import { isStoreLink, packageOfEntry } from './library-package';
import { isPlainFolderName } from './lock-entry-check';
import type { LockEntry } from './lock-file';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
export const NOT_A_FILE = 'not a regular file';

export interface Tree {
  /** Relative path (forward slashes) → sha256, or NOT_A_FILE for a link or anything else that is not a file. */
  files: Map<string, string>;
  dirs: string[];
}

/** The files and folders under dir, links listed (as NOT_A_FILE), never followed. */
export async function listTree(dir: string): Promise<Tree> {
  const tree: Tree = { files: new Map(), dirs: [] };
  const walk = async (rel: string): Promise<void> => {
    for (const item of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? item.name : `${rel}/${item.name}`;
      // Dirent types come from lstat: a link to a folder is a link here, not a folder to walk into.
      if (item.isDirectory()) {
        tree.dirs.push(child);
        await walk(child);
      } else if (item.isFile()) tree.files.set(child, sha256(await fsp.readFile(path.join(dir, child))));
      else tree.files.set(child, NOT_A_FILE);
    }
  };
  await walk('');
  return tree;
}

/** Every regular file under dir, relative with forward slashes, with its sha256; links are listed, not followed. */
export async function hashTree(dir: string): Promise<{ path: string; sha256: string }[]> {
  const { files } = await listTree(dir);
  return [...files]
    .map(([p, h]) => ({ path: p, sha256: h }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Folders the package does not have, unless a listed path already shows them (an empty one would go unsaid). */
export const foreignDirs = (now: Tree, expected: Tree, listed: string[]): string[] =>
  now.dirs.filter((d) => !expected.dirs.includes(d) && !listed.some((p) => p.startsWith(`${d}/`)));

type Checked =
  | { kind: 'gone' }
  | { kind: 'link'; where: string }
  | { kind: 'folder'; where: string; now: Tree; expected: Tree }
  | { kind: 'refused'; reason: string };

/** What the entry's folder is, next to the package it claims to be. */
async function checkEntry(
  ctx: InstallContext,
  targetDir: string,
  folder: string,
  entry: LockEntry,
): Promise<Checked> {
  if (!isPlainFolderName(folder)) return { kind: 'refused', reason: 'it is not a plain folder name' };
  const where = path.join(targetDir, folder);
  const stat = await fsp.lstat(where).catch(() => null);
  if (!stat) return { kind: 'gone' };
  if (entry.mode === 'symlink') {
    if (!stat.isSymbolicLink()) return { kind: 'refused', reason: 'a folder replaced the link' };
    if (!isStoreLink(ctx, entry))
      return { kind: 'refused', reason: "its lock entry names a link outside this library's package store" };
    const to = await fsp.readlink(where);
    return to === entry.linkTo
      ? { kind: 'link', where }
      : { kind: 'refused', reason: `the link now points to ${to}` };
  }
  if (!stat.isDirectory()) return { kind: 'refused', reason: 'it is no longer a folder' };
  const pkg = await packageOfEntry(ctx, entry);
  if ('reason' in pkg) return { kind: 'refused', reason: `${pkg.reason}, so it cannot be checked` };
  return { kind: 'folder', where, now: await listTree(where), expected: await listTree(pkg.dir) };
}

/** Why the folder is not the package the entry names, or null when it is exactly that. */
export async function driftOf(
  ctx: InstallContext,
  targetDir: string,
  folder: string,
  entry: LockEntry,
): Promise<string | null> {
  const checked = await checkEntry(ctx, targetDir, folder, entry);
  if (checked.kind === 'gone') return 'it is gone from the target';
  if (checked.kind === 'refused') return checked.reason;
  if (checked.kind === 'link') return null;
  const { now, expected } = checked;
  const added = [...now.files.keys()].filter((p) => !expected.files.has(p));
  added.push(...foreignDirs(now, expected, added));
  const changed = [...now.files].filter(([p, h]) => expected.files.has(p) && expected.files.get(p) !== h);
  const gone = [...expected.files.keys()].filter((p) => !now.files.has(p));
  const parts = [
    added.length ? `files added by hand: ${added.sort().join(', ')}` : '',
    changed.length ? `files changed: ${changed.map(([p]) => p).join(', ')}` : '',
    gone.length ? `files removed: ${gone.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? `changed in the target since install (${parts.join('; ')})` : null;
}

export interface Removal {
  /** Absolute paths to unlink: the link, or the package's files whose bytes are unchanged. */
  unlink: string[];
  /** Absolute folders to remove once empty, deepest first. */
  rmdir: string[];
  /** Why something stays, or null when the entry's folder goes entirely. */
  kept: string | null;
}

/** What removing the entry would take: nothing the package does not hold byte for byte. */
export async function removalOf(
  ctx: InstallContext,
  targetDir: string,
  folder: string,
  entry: LockEntry,
): Promise<Removal> {
  const checked = await checkEntry(ctx, targetDir, folder, entry);
  if (checked.kind === 'gone') return { unlink: [], rmdir: [], kept: null };
  if (checked.kind === 'link') return { unlink: [checked.where], rmdir: [], kept: null };
  if (checked.kind === 'refused') return { unlink: [], rmdir: [], kept: `${checked.reason}; left in place` };
  const { where, now, expected } = checked;
  const at = (rel: string): string => path.join(where, ...rel.split('/'));
  const unlink: string[] = [];
  const kept: string[] = [];
  for (const [p, h] of now.files) {
    if (h !== NOT_A_FILE && expected.files.get(p) === h) unlink.push(at(p));
    else kept.push(p);
  }
  const ours = now.dirs.filter((d) => expected.dirs.includes(d));
  kept.push(...foreignDirs(now, expected, kept));
  const rmdir = [...ours.sort((a, b) => b.split('/').length - a.split('/').length).map(at), where];
  return {
    unlink,
    rmdir,
    kept: kept.length ? `kept files not installed or changed since: ${kept.sort().join(', ')}` : null,
  };
}

export async function applyRemoval(removal: Removal): Promise<void> {
  for (const file of removal.unlink) await fsp.unlink(file);
  for (const dir of removal.rmdir)
    await fsp.rmdir(dir).catch((e: NodeJS.ErrnoException) => {
      // A folder that still holds what was kept stays.
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST' && e.code !== 'ENOENT') throw e;
    });
}
