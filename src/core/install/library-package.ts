// The library's own package for one skill content, kept under <data>/installed-packages/<content digest>/: symlink
// installs link to it, copy installs copy it, and it is what a folder in a target is compared with before anything
// there is replaced or removed (never the hashes a lock file claims).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { InstallResult } from '../../shared/install';
import { exportSkills, safeFolderName } from '../export';
import type { InstallContext } from './install';
import { isContentHash, isPlainFolderName } from './lock-entry-check';
import type { LockEntry } from './lock-file';

export interface LibrarySkill {
  id: number;
  name: string;
  contentHash: string;
}

const storeRoot = (ctx: InstallContext): string => path.join(ctx.paths.dataDir, 'installed-packages');

/** The store's package for this skill's content, built by the export unless it is there already. */
export async function ensurePackage(
  ctx: InstallContext,
  skill: LibrarySkill,
): Promise<{ dir: string; missing: InstallResult['missing'] }> {
  const store = path.join(storeRoot(ctx), skill.contentHash);
  const dir = path.join(store, safeFolderName(skill.name));
  if ((await fsp.lstat(dir).catch(() => null))?.isDirectory()) return { dir, missing: [] };
  await fsp.rm(store, { recursive: true, force: true });
  const exported = await exportSkills(ctx.db, { skillIds: [skill.id], format: 'folder', destination: store });
  return { dir, missing: exported.missing };
}

/** Whether the entry's link is one into this library's store for the entry's own content. */
export function isStoreLink(ctx: InstallContext, entry: LockEntry): boolean {
  if (!isContentHash(entry.contentHash) || typeof entry.linkTo !== 'string') return false;
  const name = path.basename(entry.linkTo);
  return isPlainFolderName(name) && entry.linkTo === path.join(storeRoot(ctx), entry.contentHash, name);
}

/**
 * The package the entry names: its skill at that content when the library still holds it, else the store's package
 * for that content (kept after the library moved on); or why the library holds none.
 */
export async function packageOfEntry(
  ctx: InstallContext,
  entry: LockEntry,
): Promise<{ dir: string } | { reason: string }> {
  const none = {
    reason: `the library holds no package for skill #${entry.skillId} at content ${String(entry.contentHash).slice(0, 12)}`,
  };
  if (!isContentHash(entry.contentHash)) return none;
  const skill = ctx.db
    .prepare('SELECT id, name, content_hash AS contentHash FROM skills WHERE id = ?')
    .get(entry.skillId) as LibrarySkill | undefined;
  if (skill && skill.contentHash === entry.contentHash) return { dir: (await ensurePackage(ctx, skill)).dir };
  const store = path.join(storeRoot(ctx), entry.contentHash);
  const folders = (await fsp.readdir(store, { withFileTypes: true }).catch(() => [])).filter((d) =>
    d.isDirectory(),
  );
  return folders.length === 1 ? { dir: path.join(store, folders[0]!.name) } : none;
}
