// Folder source: every SKILL.md below a folder. Symlinks are followed only while they stay inside the source, and never in a loop.
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { FileTooLargeError, summarizeFile } from '../package-files';
import { buildSkill, type BuildResult } from '../skill-md';
import type { ImportSettings, PackageFile, ValidationIssue } from '../types';
import { inSkill, joinRel, nearestSkillDir, type OpenedSource, type SourceItem } from './source';

const skippedDirs = new Set(['node_modules', '.git']);

interface FoundFile {
  rel: string;
  real: string;
  size: number;
}

interface Walk {
  root: string;
  files: FoundFile[];
  hostile: { rel: string; rule: string; message: string }[];
  /** Real paths of the folders on the way down to the current one: a link to one of them is a loop. */
  ancestors: Set<string>;
  truncated: boolean;
}

const maxDepth = 64;
/** Links inside the source may repeat folders; this bounds the listing however they are arranged. */
const maxFiles = 200_000;

export async function openFolderSource(
  folder: string,
  limits: ImportSettings,
  signal: AbortSignal,
): Promise<OpenedSource & { complete: boolean }> {
  const root = await fsp.realpath(folder);
  const walk: Walk = { root, files: [], hostile: [], ancestors: new Set([root]), truncated: false };
  await walkDir(walk, root, '', signal);

  // A SKILL.md that was refused (an escaping link) still marks its folder, so that skill is rejected as a whole.
  const named = [...walk.files.map((f) => f.rel), ...walk.hostile.map((h) => h.rel)];
  const skillDirs = new Set(
    named.filter((p) => path.posix.basename(p) === 'SKILL.md').map((p) => path.posix.dirname(p)),
  );
  const norm = (d: string) => (d === '.' ? '' : d);
  const dirs = new Set([...skillDirs].map(norm));
  const byDir = new Map<string, FoundFile[]>([...dirs].map((d) => [d, []]));
  for (const f of walk.files) {
    const dir = nearestSkillDir(f.rel, dirs);
    if (dir !== null) byDir.get(dir)!.push(f);
  }
  const hostileByDir = new Map<string, ValidationIssue[]>();
  const items: SourceItem[] = [];
  for (const h of walk.hostile) {
    const dir = nearestSkillDir(h.rel, dirs);
    const issue: ValidationIssue = { severity: 'error', rule: h.rule, message: h.message, file: h.rel };
    if (dir === null) items.push({ type: 'rejection', relPath: h.rel, file: h.rel, issues: [issue] });
    else hostileByDir.set(dir, [...(hostileByDir.get(dir) ?? []), issue]);
  }

  for (const dir of [...dirs].sort()) {
    const skillMdRel = joinRel(dir, 'SKILL.md');
    const hostile = hostileByDir.get(dir);
    if (hostile) {
      items.push({ type: 'rejection', relPath: dir, file: skillMdRel, issues: hostile });
      continue;
    }
    const members = byDir.get(dir)!;
    const folderName = dir === '' ? path.basename(root) : path.posix.basename(dir);
    items.push({
      type: 'candidate',
      relPath: dir,
      file: skillMdRel,
      load: () => loadSkill(members, dir, skillMdRel, folderName, limits),
    });
  }
  return { items, complete: !walk.truncated, close: async () => {} };
}

async function walkDir(walk: Walk, realDir: string, relDir: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (walk.truncated) return;
  if (walk.files.length > maxFiles) {
    walk.truncated = true;
    walk.hostile.push({
      rel: relDir || '.',
      rule: 'folder-too-many-files',
      message: `the source lists more than ${maxFiles} files; the rest is not read`,
    });
    return;
  }
  let entries;
  try {
    entries = await fsp.readdir(realDir, { withFileTypes: true });
  } catch (error) {
    walk.hostile.push({
      rel: relDir || '.',
      rule: 'unreadable',
      message: `cannot read folder: ${(error as Error).message}`,
    });
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = joinRel(relDir, entry.name);
    const full = path.join(realDir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) await enterDir(walk, full, rel, signal);
      continue;
    }
    if (entry.isFile()) {
      const st = await fsp.stat(full);
      walk.files.push({ rel, real: full, size: st.size });
      continue;
    }
    if (!entry.isSymbolicLink()) continue; // sockets, fifos, devices are never package files
    let target: string;
    try {
      target = await fsp.realpath(full);
    } catch {
      walk.hostile.push({ rel, rule: 'symlink-broken', message: `symlink ${rel} points to nothing` });
      continue;
    }
    if (target !== walk.root && !target.startsWith(walk.root + path.sep)) {
      walk.hostile.push({
        rel,
        rule: 'symlink-escapes-source',
        message: `symlink ${rel} points outside the source (to ${target})`,
      });
      continue;
    }
    const st = await fsp.stat(target);
    if (st.isDirectory()) {
      if (!skippedDirs.has(entry.name)) await enterDir(walk, target, rel, signal);
    } else if (st.isFile()) walk.files.push({ rel, real: target, size: st.size });
  }
}

async function enterDir(walk: Walk, realDir: string, rel: string, signal: AbortSignal): Promise<void> {
  const real = await fsp.realpath(realDir);
  if (walk.ancestors.has(real)) return; // a link back up the tree: following it would never end
  if (walk.ancestors.size > maxDepth) {
    walk.hostile.push({
      rel,
      rule: 'folder-too-deep',
      message: `${rel} is more than ${maxDepth} folders deep`,
    });
    return;
  }
  walk.ancestors.add(real);
  try {
    await walkDir(walk, real, rel, signal);
  } finally {
    walk.ancestors.delete(real);
  }
}

async function loadSkill(
  members: FoundFile[],
  dir: string,
  skillMdRel: string,
  folderName: string,
  limits: ImportSettings,
): Promise<BuildResult> {
  const skillMd = members.find((m) => m.rel === skillMdRel)!;
  const tooBig = (m: FoundFile, cap: number, rule: string) =>
    ({
      ok: false,
      issues: [
        { severity: 'error', rule, message: `${m.rel} is ${m.size} bytes; the limit is ${cap}`, file: m.rel },
      ],
    }) satisfies BuildResult;
  // Checked from the size on disk, so an oversized SKILL.md is never read.
  if (skillMd.size > limits.skillMdMaxBytes)
    return tooBig(skillMd, limits.skillMdMaxBytes, 'skill-md-too-large');
  const files: PackageFile[] = [];
  for (const m of members) {
    if (m === skillMd) continue;
    if (m.size > limits.packageFileMaxBytes)
      return tooBig(m, limits.packageFileMaxBytes, 'package-file-too-large');
    try {
      files.push(
        await summarizeFile(inSkill(dir, m.rel), () => createReadStream(m.real), {
          maxBytes: limits.packageFileMaxBytes,
          textCap: limits.referenceTextMaxBytes,
        }),
      );
    } catch (error) {
      const rule = error instanceof FileTooLargeError ? 'package-file-too-large' : 'unreadable';
      return {
        ok: false,
        issues: [{ severity: 'error', rule, message: `${m.rel}: ${(error as Error).message}`, file: m.rel }],
      } satisfies BuildResult;
    }
  }
  const bytes = await readAtMost(skillMd.real, limits.skillMdMaxBytes);
  return buildSkill({
    bytes,
    file: skillMdRel,
    relPath: dir,
    folderName,
    files,
    maxBytes: limits.skillMdMaxBytes,
    nameFolderMismatch: limits.nameFolderMismatch,
  });
}

/** Reads at most cap + 1 bytes, so a file that grew after it was listed still cannot flood memory. */
async function readAtMost(file: string, cap: number): Promise<Uint8Array> {
  const handle = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(cap + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0 || n + bytesRead >= buf.length) {
        n += bytesRead;
        break;
      }
      n += bytesRead;
    }
    return buf.subarray(0, n);
  } finally {
    await handle.close();
  }
}
