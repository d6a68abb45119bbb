// The lock file in a target folder: which folders this library installed, from which library content, how, and the
// hash of every file written, so re-install can tell what changed and uninstall removes exactly that.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallMode } from '../../shared/install';

export const LOCK_NAME = '.skill-curator-lock.json';
const FORMAT = 'skill-curator-install/1';

export interface LockEntry {
  skill: string;
  skillId: number;
  /** The library's content_hash of the skill (SKILL.md and every package file) when installed. */
  contentHash: string;
  mode: InstallMode;
  /** "profile:NAME" or "skills". */
  set: string;
  /** For symlink mode: the package folder the link points to. */
  linkTo?: string;
  /** Every file written, relative to the skill folder (copy mode) or to linkTo (symlink mode). */
  files: { path: string; sha256: string }[];
  installedAt: string;
}

export interface LockFile {
  format: typeof FORMAT;
  /** The library file the skills came from. */
  library: string;
  entries: Record<string, LockEntry>;
}

export const lockPath = (targetDir: string): string => path.join(targetDir, LOCK_NAME);

export async function readLock(targetDir: string, library: string): Promise<LockFile> {
  const file = lockPath(targetDir);
  const text = await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (text === null) return { format: FORMAT, library, entries: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CuratorError('VALIDATION_FAILED', `${file} is not valid JSON; fix or remove it by hand`);
  }
  const lock = parsed as Partial<LockFile>;
  if (lock.format !== FORMAT || typeof lock.entries !== 'object' || lock.entries === null)
    throw new CuratorError(
      'VALIDATION_FAILED',
      `${file} is not a ${FORMAT} lock file; fix or remove it by hand`,
    );
  return lock as LockFile;
}

export async function writeLock(targetDir: string, lock: LockFile): Promise<void> {
  const file = lockPath(targetDir);
  if (Object.keys(lock.entries).length === 0) {
    await fsp.rm(file, { force: true });
    return;
  }
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fsp.writeFile(tmp, JSON.stringify(lock, null, 2) + '\n');
  await fsp.rename(tmp, file);
}
