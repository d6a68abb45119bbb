// The lock file in a target folder: which folders this library installed, from which library content, how, and the
// hash of every file written. Read as a claim to check, never as proof: what is replaced or removed is compared with the
// library's own package (installed-state.ts).
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallMode } from '../../shared/install';
import { firstDuplicateKey } from './json-duplicate-keys';
import { checkedEntries } from './lock-entry-check';

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

/** Larger than any lock Skill Curator writes (a few hundred bytes a skill); a bigger file is not ours. */
const MAX_LOCK_BYTES = 16 * 1024 * 1024;

const notOurs = (file: string, why: string): CuratorError =>
  new CuratorError('VALIDATION_FAILED', `${file} ${why}; fix or remove it by hand`);

export async function readLock(targetDir: string, library: string): Promise<LockFile> {
  const file = lockPath(targetDir);
  const stat = await fsp.lstat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (stat === null) return { format: FORMAT, library, entries: Object.create(null) as LockFile['entries'] };
  // A link would let the lock speak for another place; Skill Curator only ever writes a plain file here.
  if (stat.isSymbolicLink()) throw notOurs(file, 'is a link, not the lock file Skill Curator writes');
  if (!stat.isFile()) throw notOurs(file, 'is not a file');
  if (stat.size > MAX_LOCK_BYTES) throw notOurs(file, 'is too large to be a lock file');
  const text = await fsp.readFile(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw notOurs(file, 'is not valid JSON');
  }
  const lock = parsed as Partial<LockFile> | null;
  if (
    typeof lock !== 'object' ||
    lock === null ||
    lock.format !== FORMAT ||
    typeof lock.entries !== 'object' ||
    lock.entries === null ||
    Array.isArray(lock.entries)
  )
    throw notOurs(file, `is not a ${FORMAT} lock file`);
  const repeated = firstDuplicateKey(text);
  if (repeated !== null) throw notOurs(file, `names ${JSON.stringify(repeated)} twice`);
  return {
    format: FORMAT,
    library: typeof lock.library === 'string' ? lock.library : library,
    entries: checkedEntries(file, lock.entries as Record<string, unknown>),
  };
}

/** Writes beside the lock and renames over it, so a reader never meets half a lock. */
export async function writeLock(targetDir: string, lock: LockFile): Promise<void> {
  const file = lockPath(targetDir);
  if (Object.keys(lock.entries).length === 0) {
    await fsp.rm(file, { force: true });
    return;
  }
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsp.writeFile(tmp, JSON.stringify({ ...lock, entries: { ...lock.entries } }, null, 2) + '\n', {
      flag: 'wx',
    });
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}
