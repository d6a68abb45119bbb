// What a lock file may say: the lock sits in a folder anyone may write (a cloned repository ships .claude/skills), so
// every entry is checked before it is trusted to name a folder of ours — one plain folder name inside the target, and
// fields of the shapes Skill Curator writes.
import { CuratorError } from '../../shared/errors';
import { safeRelativePath } from '../export';
import type { LockEntry } from './lock-file';

/** A single folder name inside the target: no separators, no climbing, nothing a path could read as another place. */
export const isPlainFolderName = (name: string): boolean => safeRelativePath(name) && !name.includes('/');

export const isContentHash = (s: unknown): s is string => typeof s === 'string' && /^[0-9a-f]{64}$/.test(s);

const isText = (v: unknown): v is string => typeof v === 'string';

/** Why this entry is not one Skill Curator would have written, or null when it is. */
function problemOf(folder: string, raw: unknown): string | null {
  if (!isPlainFolderName(folder)) return 'is not a plain folder name inside the target';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'is not an object';
  const e = raw as Partial<Record<keyof LockEntry, unknown>>;
  if (!isText(e.skill) || !isText(e.set) || !isText(e.installedAt)) return 'lacks its skill, set or date';
  if (typeof e.skillId !== 'number' || !Number.isInteger(e.skillId) || e.skillId <= 0)
    return 'has no skill id';
  if (!isContentHash(e.contentHash)) return 'has no content digest';
  if (e.mode !== 'copy' && e.mode !== 'symlink') return 'has no mode (copy or symlink)';
  if (e.mode === 'symlink' && !isText(e.linkTo)) return 'is a link without the place it links to';
  if (!Array.isArray(e.files)) return 'has no file list';
  const seen = new Set<string>();
  for (const f of e.files as unknown[]) {
    const file = f as { path?: unknown; sha256?: unknown } | null;
    if (!file || !isText(file.path) || !isText(file.sha256) || !safeRelativePath(file.path))
      return `lists a file that is not a plain path inside its folder (${JSON.stringify(file?.path ?? file)})`;
    if (seen.has(file.path)) return `lists ${file.path} twice`;
    seen.add(file.path);
  }
  return null;
}

const refused = (file: string, what: string): CuratorError =>
  new CuratorError(
    'VALIDATION_FAILED',
    `${file}: ${what}, so Skill Curator will not act on it; remove that entry (or the lock file) by hand`,
  );

/** The entries of the lock file `file`, checked; the first problem is thrown as a sentence. */
export function checkedEntries(file: string, raw: Record<string, unknown>): Record<string, LockEntry> {
  const entries: Record<string, LockEntry> = Object.create(null) as Record<string, LockEntry>;
  const owner = new Map<string, string>();
  for (const [folder, value] of Object.entries(raw)) {
    const problem = problemOf(folder, value);
    if (problem) throw refused(file, `entry ${JSON.stringify(folder)} ${problem}`);
    const entry = value as LockEntry;
    const key = `${entry.set}\0${entry.skillId}`;
    const other = owner.get(key);
    if (other !== undefined)
      throw refused(
        file,
        `entries ${JSON.stringify(other)} and ${JSON.stringify(folder)} both claim skill #${entry.skillId} for ${entry.set}`,
      );
    owner.set(key, folder);
    entries[folder] = entry;
  }
  return entries;
}
