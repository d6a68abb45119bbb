// Folder source: every SKILL.md below a folder (listed by walkFolder), each read back as the walk saw it: a file that
// vanished, was swapped or cannot be read rejects its skill only, and nothing is opened that could block.
import fs, { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { FileTooLargeError, summarizeFile } from '../package-files';
import { buildSkill, type BuildResult } from '../skill-md';
import type { ImportSettings, PackageFile, ValidationIssue } from '../types';
import { realPathOf, walkFolder, type FoundFile } from './folder-walk';
import { issueOf, openRegularFd, SourceFileError } from './safe-open';
import {
  inSkill,
  joinRel,
  nearestSkillDir,
  type OpenedSource,
  type SkillCandidate,
  type SourceItem,
} from './source';

/** Package files read at once: the open + fstat + read round trips of small files overlap (the pool has 4 threads). */
const readAhead = 4;
const stopRules = new Set(['folder-walk-stopped', 'folder-too-many-visits', 'folder-too-many-files']);

export interface FolderSourceOptions {
  /** Called after each folder is listed (progress while a large tree is walked). */
  onFolder?(foldersRead: number, rel: string): void;
}

export async function openFolderSource(
  folder: string,
  limits: ImportSettings,
  signal: AbortSignal,
  options: FolderSourceOptions = {},
): Promise<OpenedSource & { complete: boolean }> {
  const root = await fsp.realpath(folder);
  const walk = await walkFolder(root, {
    signal,
    maxFolders: limits.folderMaxVisits,
    hardlinkOutsideSource: limits.hardlinkOutsideSource,
    onFolder: options.onFolder,
  });

  // A SKILL.md that was refused (an escaping link, a FIFO) still marks its folder, so that skill is rejected as a whole.
  const named = [...walk.files.map((f) => f.rel), ...walk.findings.map((h) => h.rel)];
  const skillDirs = new Set(
    named.filter((p) => path.posix.basename(p) === 'SKILL.md').map((p) => path.posix.dirname(p)),
  );
  const dirs = new Set([...skillDirs].map((d) => (d === '.' ? '' : d)));
  const byDir = new Map<string, FoundFile[]>([...dirs].map((d) => [d, []]));
  for (const f of walk.files) {
    const dir = nearestSkillDir(f.rel, dirs);
    if (dir !== null) byDir.get(dir)!.push(f);
  }
  const errorsByDir = new Map<string, ValidationIssue[]>();
  const warningsByDir = new Map<string, ValidationIssue[]>();
  const items: SourceItem[] = [];
  const reading: Reading = { root, limits, signal };
  for (const h of walk.findings) {
    const dir = nearestSkillDir(h.rel, dirs);
    const issue: ValidationIssue = { severity: h.severity, rule: h.rule, message: h.message, file: h.rel };
    if (dir === null) {
      if (!h.skillOnly && h.severity === 'error')
        items.push({ type: 'rejection', relPath: h.rel, file: h.rel, issues: [issue] });
      continue;
    }
    const into = h.severity === 'error' ? errorsByDir : warningsByDir;
    const known = into.get(dir) ?? [];
    // One word that the walk stopped is enough for a skill, however many of its folders were left unread.
    if (h.rule === 'folder-walk-stopped' && known.some((i) => stopRules.has(i.rule))) continue;
    into.set(dir, [...known, issue]);
  }

  for (const dir of [...dirs].sort()) {
    const skillMdRel = joinRel(dir, 'SKILL.md');
    const errors = errorsByDir.get(dir);
    if (errors) {
      items.push({ type: 'rejection', relPath: dir, file: skillMdRel, issues: errors });
      continue;
    }
    const folderName = dir === '' ? path.basename(root) : path.posix.basename(dir);
    const warnings = warningsByDir.get(dir) ?? noWarnings;
    // A copy the size of its list: an array grown by push keeps room for 17 (a 68k tree held 10 MB of such room).
    items.push(new ListedSkill(reading, dir, byDir.get(dir)!.slice(), folderName, warnings));
  }
  return { items, complete: walk.complete, close: async () => {} };
}

const noWarnings: ValidationIssue[] = [];

/** What every skill of one source shares while it is read. */
interface Reading {
  /** The source folder's real path. */
  root: string;
  limits: ImportSettings;
  signal: AbortSignal;
}

/**
 * A skill folder the walk found: its files as listed. One small object each (no closure of its own): a 68k tree has
 * 68k of them.
 */
class ListedSkill implements SkillCandidate {
  readonly type = 'candidate';
  constructor(
    private readonly reading: Reading,
    readonly relPath: string,
    readonly members: FoundFile[],
    readonly folderName: string,
    readonly warnings: ValidationIssue[],
  ) {}

  get file(): string {
    return joinRel(this.relPath, 'SKILL.md');
  }

  load(): Promise<BuildResult> {
    return loadSkill(this, this.reading);
  }
}

async function loadSkill(skill: ListedSkill, { root, limits, signal }: Reading): Promise<BuildResult> {
  const { members, relPath: dir, file: skillMdRel } = skill;
  const skillMd = members.find((m) => m.rel === skillMdRel)!;
  const reject = (issue: ValidationIssue): BuildResult => ({ ok: false, issues: [issue] });
  const tooBig = (m: FoundFile, cap: number, rule: string) =>
    reject({
      severity: 'error',
      rule,
      message: `${m.rel} is ${m.size} bytes; the limit is ${cap}`,
      file: m.rel,
    });
  // Checked from the size on disk, so an oversized SKILL.md is never read.
  if (skillMd.size > limits.skillMdMaxBytes)
    return tooBig(skillMd, limits.skillMdMaxBytes, 'skill-md-too-large');
  const files: PackageFile[] = [];
  let bytes: Uint8Array;
  const others = members.filter((m) => m !== skillMd);
  const oversized = others.find((m) => m.size > limits.packageFileMaxBytes);
  if (oversized) return tooBig(oversized, limits.packageFileMaxBytes, 'package-file-too-large');
  const summarize = async (m: FoundFile) => {
    const fd = await openListed(root, m);
    // A plain descriptor stream (callback reads) is markedly faster here than a FileHandle's promise reads.
    return summarizeFile(inSkill(dir, m.rel), () => createReadStream('', { fd, start: 0 }), {
      maxBytes: limits.packageFileMaxBytes,
      textCap: limits.referenceTextMaxBytes,
    });
  };
  try {
    for (let i = 0; i < others.length; i += readAhead) {
      signal.throwIfAborted();
      const settled = await Promise.allSettled(others.slice(i, i + readAhead).map(summarize));
      // The first failure in file order, so the report does not depend on which read finished first.
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      for (const r of settled) if (r.status === 'fulfilled') files.push(r.value);
    }
    signal.throwIfAborted();
    bytes = await readAtMost(await openListed(root, skillMd), limits.skillMdMaxBytes, skillMd.size);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof SourceFileError) return reject(issueOf(error, error.file ?? skillMdRel));
    const rule = error instanceof FileTooLargeError ? 'package-file-too-large' : 'unreadable';
    return reject({ severity: 'error', rule, message: (error as Error).message, file: skillMdRel });
  }
  return buildSkill({
    bytes,
    file: skillMdRel,
    relPath: dir,
    folderName: skill.folderName,
    files,
    maxBytes: limits.skillMdMaxBytes,
    nameFolderMismatch: limits.nameFolderMismatch,
    nameFormat: limits.nameFormat,
    warnings: skill.warnings,
  });
}

/** Opens a listed file only if it is still the regular file the walk saw (not vanished, swapped or made a link). */
async function openListed(root: string, m: FoundFile): Promise<number> {
  try {
    return await openRegularFd(realPathOf(root, m), {
      label: m.rel,
      expect: { dev: m.dev, ino: m.ino },
      noFollow: true,
    });
  } catch (error) {
    if (error instanceof SourceFileError) error.file = m.rel;
    throw error;
  }
}

const read = promisify(fs.read);
const close = promisify(fs.close);

/**
 * Reads at most cap + 1 bytes, so a file that grew after it was listed still cannot flood memory; closes the file.
 * The buffer starts at the listed size (not the cap: a megabyte per SKILL.md adds up over 68,000 of them).
 */
async function readAtMost(fd: number, cap: number, listedSize: number): Promise<Uint8Array> {
  try {
    let buf = Buffer.alloc(Math.min(cap + 1, listedSize + 1));
    let n = 0;
    for (;;) {
      const { bytesRead } = await read(fd, buf, n, buf.length - n, n);
      n += bytesRead;
      if (bytesRead === 0 || n >= cap + 1) break;
      if (n === buf.length) {
        const bigger = Buffer.alloc(Math.min(cap + 1, buf.length * 2));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
    }
    return buf.subarray(0, n);
  } finally {
    await close(fd);
  }
}
