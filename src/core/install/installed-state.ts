// What is on disk for one lock entry: whether it is still exactly what was installed, and removing it without taking
// anything that was not installed (a file added or changed by hand stays, with its folder).
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { LockEntry } from './lock-file';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Every regular file under dir, relative with forward slashes, with its sha256; links are listed, not followed. */
export async function hashTree(dir: string): Promise<{ path: string; sha256: string }[]> {
  const out: { path: string; sha256: string }[] = [];
  const walk = async (rel: string): Promise<void> => {
    const items = await fsp.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const item of items) {
      const child = rel === '' ? item.name : `${rel}/${item.name}`;
      if (item.isDirectory()) await walk(child);
      else if (item.isFile())
        out.push({ path: child, sha256: sha256(await fsp.readFile(path.join(dir, child))) });
      else out.push({ path: child, sha256: `not a regular file` });
    }
  };
  await walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Why the folder is not what the lock says was installed, or null when it is exactly that. */
export async function driftOf(targetDir: string, folder: string, entry: LockEntry): Promise<string | null> {
  const where = path.join(targetDir, folder);
  const stat = await fsp.lstat(where).catch(() => null);
  if (!stat) return 'it is gone from the target';
  if (entry.mode === 'symlink') {
    if (!stat.isSymbolicLink()) return 'a folder replaced the link';
    const to = await fsp.readlink(where);
    return to === entry.linkTo ? null : `the link now points to ${to}`;
  }
  if (!stat.isDirectory()) return 'it is no longer a folder';
  const now = await hashTree(where);
  const recorded = new Map(entry.files.map((f) => [f.path, f.sha256]));
  const added = now.filter((f) => !recorded.has(f.path)).map((f) => f.path);
  const changed = now
    .filter((f) => recorded.has(f.path) && recorded.get(f.path) !== f.sha256)
    .map((f) => f.path);
  const gone = entry.files.filter((f) => !now.some((n) => n.path === f.path)).map((f) => f.path);
  const parts = [
    added.length ? `files added by hand: ${added.join(', ')}` : '',
    changed.length ? `files changed: ${changed.join(', ')}` : '',
    gone.length ? `files removed: ${gone.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

/**
 * Removes what was installed for the entry: the link (when it still points where we put it), or each recorded file
 * whose bytes are unchanged, then the folders left empty. Returns why something was kept, or null when all is gone.
 */
export async function removeInstalled(
  targetDir: string,
  folder: string,
  entry: LockEntry,
): Promise<string | null> {
  const where = path.join(targetDir, folder);
  const stat = await fsp.lstat(where).catch(() => null);
  if (!stat) return null;
  if (entry.mode === 'symlink') {
    if (stat.isSymbolicLink() && (await fsp.readlink(where)) === entry.linkTo) {
      await fsp.unlink(where);
      return null;
    }
    return 'it is not the link Skill Curator made; left in place';
  }
  if (!stat.isDirectory()) return 'it is no longer a folder; left in place';
  const now = new Map((await hashTree(where)).map((f) => [f.path, f.sha256]));
  const kept: string[] = [];
  for (const f of entry.files) {
    if (!now.has(f.path)) continue;
    if (now.get(f.path) === f.sha256) await fsp.unlink(path.join(where, ...f.path.split('/')));
    else kept.push(f.path);
  }
  for (const p of now.keys()) if (!entry.files.some((f) => f.path === p)) kept.push(p);
  await removeEmptyDirs(where);
  return kept.length ? `kept files not installed or changed since: ${kept.sort().join(', ')}` : null;
}

async function removeEmptyDirs(dir: string): Promise<boolean> {
  const items = await fsp.readdir(dir, { withFileTypes: true });
  let empty = true;
  for (const item of items) {
    if (item.isDirectory() && (await removeEmptyDirs(path.join(dir, item.name)))) continue;
    empty = false;
  }
  if (empty) await fsp.rmdir(dir);
  return empty;
}
