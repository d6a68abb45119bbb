// One skill's package built in an install's staging folder, ready to be renamed into the target.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { InstallMode, InstallResult } from '../../shared/install';
import type { InstallContext } from './install';
import { hashTree } from './installed-state';
import { ensurePackage, type LibrarySkill } from './library-package';
import type { LockEntry } from './lock-file';

/** Builds one skill's package in staging from the library's package store: a copy of it, or a link to it. */
export async function build(
  ctx: InstallContext,
  skill: LibrarySkill,
  mode: InstallMode,
  staging: string,
): Promise<{
  placed: string;
  linkTo?: string;
  files: LockEntry['files'];
  missing: InstallResult['missing'];
}> {
  // Copies come from the store too, so the package a copy is later checked against stays there.
  const pkg = await ensurePackage(ctx, skill);
  if (mode === 'copy') {
    const placed = path.join(staging, `new-${skill.id}`);
    await fsp.cp(pkg.dir, placed, { recursive: true, errorOnExist: true, force: false });
    return { placed, files: await hashTree(placed), missing: pkg.missing };
  }
  const placed = path.join(staging, `link-${skill.id}`);
  await fsp.symlink(pkg.dir, placed, 'dir');
  return { placed, linkTo: pkg.dir, files: await hashTree(pkg.dir), missing: pkg.missing };
}
