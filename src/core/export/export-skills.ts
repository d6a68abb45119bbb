// Exports skills (an answer, or any set) as a folder of skill packages, a zip of them, or one JSON file, ready to drop
// into an agent's skills folder. Nothing existing is overwritten; every file that could not be included is listed.
import { promises as fsp, createWriteStream } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { loadPackages, readPackage, type MissingFile, type ReadFile } from './package-reader';
import { refuseClashes } from './path-clashes';
import { writeFolder } from './write-folder';

export type ExportFormat = 'folder' | 'zip' | 'json';

export interface ExportRequest {
  skillIds: number[];
  format: ExportFormat;
  /** A folder (format folder) or a file (zip, json) that must not exist yet, or an empty folder. */
  destination: string;
}

export interface ExportResult {
  destination: string;
  /** Paths written, relative to the destination (folder) or inside the archive/JSON. */
  written: string[];
  missing: MissingFile[];
}

const reserved = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** A folder name that is safe on every OS: the skill name when it follows the spec, else a cleaned copy. */
export function safeFolderName(name: string): string {
  const clean = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 64);
  return clean === '' || reserved.test(clean) ? `skill-${clean || 'unnamed'}` : clean;
}

/** Whether a package-relative path can be written as is: plain segments, no climbing, no control characters. */
export function safeRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || /^[a-zA-Z]:/.test(p)) return false;
  return p
    .split('/')
    .every(
      (seg) =>
        seg !== '' &&
        seg !== '.' &&
        seg !== '..' &&
        ![...seg].some((ch) => ch.charCodeAt(0) < 0x20 || '<>:"|?*'.includes(ch)) &&
        !reserved.test(seg) &&
        !/[. ]$/.test(seg),
    );
}

/** One file to write: `path` relative to the destination, `file` relative to its skill's folder. */
interface ExportEntry extends ReadFile {
  skill: string;
  file: string;
}

async function collect(
  db: Db,
  skillIds: readonly number[],
  asFolders: boolean,
): Promise<{ entries: ExportEntry[]; missing: MissingFile[] }> {
  if (skillIds.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Choose at least one skill to export');
  const { packages, unknown } = loadPackages(db, [...new Set(skillIds)]);
  if (unknown.length > 0)
    throw new CuratorError('NOT_FOUND', `No skill with id ${unknown.join(', ')}`, { skillIds: unknown });
  const used = new Set<string>();
  const entries: ExportEntry[] = [];
  const missing: MissingFile[] = [];
  for (const pkg of packages) {
    const base = safeFolderName(pkg.name);
    let folder = base;
    for (let n = 2; used.has(folder); n++) folder = `${base}-${n}`;
    used.add(folder);
    const read = await readPackage(pkg);
    missing.push(...read.missing);
    const safe: { file: string; bytes: Buffer }[] = [];
    for (const f of read.files) {
      if (!safeRelativePath(f.path))
        missing.push({ name: pkg.name, file: f.path, reason: 'unsafe file name' });
      else safe.push({ file: f.path, bytes: f.bytes });
    }
    // A folder (or a zip meant to be unpacked into one) cannot hold a file and a folder of one name, nor NFC twins.
    const { kept, refused } = asFolders ? refuseClashes(safe) : { kept: safe, refused: [] };
    for (const r of refused) missing.push({ name: pkg.name, file: r.file, reason: r.reason });
    for (const f of kept)
      entries.push({ path: `${folder}/${f.file}`, bytes: f.bytes, skill: pkg.name, file: f.file });
  }
  return { entries, missing };
}

async function assertFree(target: string, asFolder: boolean): Promise<void> {
  const stat = await fsp.stat(target).catch(() => null);
  if (!stat) return;
  if (asFolder && stat.isDirectory() && (await fsp.readdir(target)).length === 0) return;
  throw new CuratorError(
    'CONFLICT',
    `${target} already exists; choose a new ${asFolder ? 'or empty folder' : 'file'}`,
  );
}

export async function exportSkills(db: Db, req: ExportRequest): Promise<ExportResult> {
  const destination = path.resolve(req.destination);
  await assertFree(destination, req.format === 'folder');
  const { entries, missing } = await collect(db, req.skillIds, req.format !== 'json');
  let written = entries.map((e) => e.path);
  if (req.format === 'folder') {
    const refused = await writeFolder(destination, entries);
    missing.push(...refused.map(({ name, file, reason }) => ({ name, file, reason })));
    const failed = new Set(refused.map((r) => r.path));
    written = written.filter((p) => !failed.has(p));
  } else if (req.format === 'zip') {
    await writeAtomically(destination, (tmp) => writeZip(tmp, entries));
  } else if (req.format === 'json') {
    const skills = new Map<
      string,
      { folder: string; files: { path: string; encoding: 'utf8' | 'base64'; content: string }[] }
    >();
    for (const e of entries) {
      const [folder, ...rest] = e.path.split('/');
      const s = skills.get(folder!) ?? { folder: folder!, files: [] };
      const text = e.bytes.toString('utf8');
      const utf8 = Buffer.from(text, 'utf8').equals(e.bytes) && !text.includes('\0');
      s.files.push({
        path: rest.join('/'),
        encoding: utf8 ? 'utf8' : 'base64',
        content: utf8 ? text : e.bytes.toString('base64'),
      });
      skills.set(folder!, s);
    }
    const json = JSON.stringify(
      { format: 'skill-curator-export/1', skills: [...skills.values()], missing },
      null,
      2,
    );
    await writeAtomically(destination, (tmp) => fsp.writeFile(tmp, json, { flag: 'wx' }));
  } else {
    throw new CuratorError('INVALID_ARGUMENT', `Unknown export format: ${String(req.format)}`);
  }
  return { destination, written, missing };
}

async function writeAtomically(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.partial-${process.pid}`;
  try {
    await write(tmp);
    await fsp.rename(tmp, target);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

async function writeZip(file: string, entries: readonly ReadFile[]): Promise<void> {
  // yazl loads with the first zip export, not with the core.
  const { default: yazl } = await import('yazl');
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    const out = createWriteStream(file, { flags: 'wx' });
    out.on('error', reject);
    out.on('close', () => resolve());
    zip.outputStream.on('error', reject).pipe(out);
    const mtime = new Date('2000-01-01T00:00:00Z'); // fixed, so equal exports are equal bytes
    for (const e of entries) zip.addBuffer(e.bytes, e.path, { mtime, mode: 0o100644 });
    zip.end();
  });
}
