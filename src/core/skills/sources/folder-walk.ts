// Lists the files below a source folder, bounded in every way a hostile tree can stretch it: folders visited (links that
// reach the same folder many ways), depth, files, loops. Symlinks are followed only inside the source; FIFOs, sockets and
// devices are refused without being opened; a file or folder that vanishes or cannot be read becomes a finding for its
// path, never an error for the whole walk. The job's signal is checked at every folder.
import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import type { IssueSeverity } from '../types';
import { notRegular, sourceFileError } from './safe-open';
import { joinRel } from './source';

export interface FoundFile {
  rel: string;
  /**
   * The path with every folder link resolved, so two names of one file in the source compare equal: only where a link
   * makes it differ from the source's root joined with rel (realPathOf). A 68k tree's listing held 6.5 MB of them.
   */
  real?: string;
  size: number;
  dev: number;
  ino: number;
  nlink: number;
}

export interface WalkFinding {
  rel: string;
  rule: string;
  message: string;
  severity: IssueSeverity;
  /** Matters only for the skill it lies in (a FIFO beside the skills is not something to report). */
  skillOnly?: boolean;
}

export interface WalkOptions {
  signal: AbortSignal;
  /** Folders read at most (each way a link reaches a folder counts once). */
  maxFolders: number;
  /** What a hard link whose other names lie outside the source is: an error rejects its skill. */
  hardlinkOutsideSource: IssueSeverity;
  /** Called after each folder is listed, before its entries are looked at. */
  onFolder?(foldersRead: number, rel: string): void;
}

export interface WalkResult {
  files: FoundFile[];
  findings: WalkFinding[];
  /** False when the walk stopped early: the listing is not the whole source. */
  complete: boolean;
}

const skippedDirs = new Set(['node_modules', '.git']);
const maxDepth = 64;
/** Links inside the source may repeat folders; this bounds the listing however they are arranged. */
const maxFiles = 200_000;

interface Walk {
  root: string;
  options: WalkOptions;
  files: FoundFile[];
  findings: WalkFinding[];
  /** Real paths of the folders on the way down to the current one: a link to one of them is a loop. */
  ancestors: Set<string>;
  foldersRead: number;
  stopped: boolean;
}

export async function walkFolder(root: string, options: WalkOptions): Promise<WalkResult> {
  const walk: Walk = {
    root,
    options,
    files: [],
    findings: [],
    ancestors: new Set([root]),
    foldersRead: 0,
    stopped: false,
  };
  await walkDir(walk, root, '');
  findOutsideHardlinks(walk);
  return { files: walk.files, findings: walk.findings, complete: !walk.stopped };
}

function error(walk: Walk, rel: string, rule: string, message: string, skillOnly = false): void {
  walk.findings.push({ rel, rule, message, severity: 'error', ...(skillOnly ? { skillOnly } : {}) });
}

function fsFinding(walk: Walk, err: unknown, rel: string, what: 'file' | 'folder'): void {
  const e = sourceFileError(err, `${what} ${rel || '.'}`);
  error(walk, rel || '.', e.rule, e.message);
}

async function walkDir(walk: Walk, realDir: string, relDir: string): Promise<void> {
  const { signal, maxFolders, onFolder } = walk.options;
  signal.throwIfAborted();
  if (walk.stopped) {
    // A skill with a folder past the stop would be imported without it: say so, so that skill is rejected whole.
    const message = `${relDir} was not read: the walk stopped before it`;
    error(walk, relDir || '.', 'folder-walk-stopped', message, true);
    return;
  }
  if (walk.foldersRead >= maxFolders || walk.files.length > maxFiles) {
    walk.stopped = true;
    const [rule, message] =
      walk.foldersRead >= maxFolders
        ? [
            'folder-too-many-visits',
            `the walk read ${maxFolders} folders (setting import.folderMaxVisits) and stopped at ${relDir || '.'}; links that reach the same folders many ways can make a walk this long`,
          ]
        : ['folder-too-many-files', `the source lists more than ${maxFiles} files; the rest is not read`];
    error(walk, relDir || '.', rule, message);
    return;
  }
  walk.foldersRead += 1;
  let entries;
  try {
    entries = await fsp.readdir(realDir, { withFileTypes: true });
  } catch (err) {
    fsFinding(walk, err, relDir, 'folder');
    return;
  }
  onFolder?.(walk.foldersRead, relDir);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = joinRel(relDir, entry.name);
    const full = path.join(realDir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) await enterDir(walk, full, rel);
    } else if (entry.isFile()) {
      // lstat, not the listing's type: the entry may have been swapped for a FIFO or a link since.
      const st = await statOrFinding(walk, () => fsp.lstat(full), rel);
      if (st) addFile(walk, st, rel, full);
    } else if (entry.isSymbolicLink()) {
      await followLink(walk, entry.name, full, rel);
    } else {
      const st = await statOrFinding(walk, () => fsp.lstat(full), rel);
      if (st) refuse(walk, st, rel);
    }
  }
}

async function followLink(walk: Walk, name: string, full: string, rel: string): Promise<void> {
  let target: string;
  try {
    target = await fsp.realpath(full);
  } catch {
    error(walk, rel, 'symlink-broken', `symlink ${rel} points to nothing`);
    return;
  }
  if (!inside(walk, target)) {
    error(walk, rel, 'symlink-escapes-source', `symlink ${rel} points outside the source (to ${target})`);
    return;
  }
  const st = await statOrFinding(walk, () => fsp.stat(target), rel);
  if (!st) return;
  if (st.isDirectory()) {
    if (!skippedDirs.has(name)) await enterDir(walk, target, rel, true);
  } else addFile(walk, st, rel, target);
}

function inside(walk: Walk, real: string): boolean {
  return real === walk.root || real.startsWith(walk.root + path.sep);
}

function addFile(walk: Walk, st: Stats, rel: string, real: string): void {
  if (!st.isFile()) return refuse(walk, st, rel);
  const file: FoundFile = { rel, size: st.size, dev: st.dev, ino: st.ino, nlink: st.nlink };
  if (real !== path.join(walk.root, rel)) file.real = real;
  walk.files.push(file);
}

/** The path of a listed file with every folder link resolved (`root` is the real path the walk started from). */
export function realPathOf(root: string, file: FoundFile): string {
  return file.real ?? path.join(root, file.rel);
}

function refuse(walk: Walk, st: Stats, rel: string): void {
  error(walk, rel, 'not-a-regular-file', notRegular(st, rel).message, true);
}

async function statOrFinding(walk: Walk, stat: () => Promise<Stats>, rel: string): Promise<Stats | null> {
  try {
    return await stat();
  } catch (err) {
    fsFinding(walk, err, rel, 'file');
    return null;
  }
}

/** `dir` is a resolved link target, or a folder entry (resolved again: it may have been swapped for a link since). */
async function enterDir(walk: Walk, dir: string, rel: string, resolved = false): Promise<void> {
  let real = dir;
  if (!resolved) {
    try {
      real = await fsp.realpath(dir);
    } catch (err) {
      fsFinding(walk, err, rel, 'folder');
      return;
    }
    if (!inside(walk, real)) {
      error(
        walk,
        rel,
        'file-changed-during-import',
        `folder ${rel} became a link out of the source while it was read`,
      );
      return;
    }
  }
  if (walk.ancestors.has(real)) return; // a link back up the tree: following it would never end
  if (walk.ancestors.size > maxDepth) {
    error(walk, rel, 'folder-too-deep', `${rel} is more than ${maxDepth} folders deep`);
    return;
  }
  walk.ancestors.add(real);
  try {
    await walkDir(walk, real, rel);
  } finally {
    walk.ancestors.delete(real);
  }
}

/**
 * A file with more than one hard link is another name of the same bytes. Other names cannot be found cheaply, so the rule
 * is: every link must be one the walk found inside the source (counted by real path); otherwise one lies outside (a hard
 * link to /etc/passwd, say) and the file is treated like a symlink that escapes the source.
 */
function findOutsideHardlinks(walk: Walk): void {
  const byInode = new Map<string, { nlink: number; reals: Set<string>; files: FoundFile[] }>();
  for (const f of walk.files) {
    if (f.nlink < 2) continue;
    const key = `${f.dev}:${f.ino}`;
    const group = byInode.get(key) ?? { nlink: f.nlink, reals: new Set<string>(), files: [] };
    group.reals.add(realPathOf(walk.root, f));
    group.files.push(f);
    byInode.set(key, group);
  }
  const severity = walk.options.hardlinkOutsideSource;
  for (const { nlink, reals, files } of byInode.values()) {
    if (reals.size >= nlink) continue;
    for (const f of files)
      walk.findings.push({
        rel: f.rel,
        rule: 'hardlink-outside-source',
        message: `${f.rel} is a hard link with ${nlink} names, ${reals.size} of them in the source: another name lies outside it (or in a folder the import skips), so its content may not be the source's`,
        severity,
        skillOnly: true,
      });
  }
}
