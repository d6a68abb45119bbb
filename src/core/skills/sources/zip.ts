// Zip source: a .zip of a skill tree, read in place from its central directory. Entry names are checked before use,
// symlink and encrypted entries are refused, expansion is bounded by declared sizes, ratios and a running total, and a
// skill with an ambiguous name (the same path twice, case or Unicode twins, a file that is also a folder) is refused.
import { closeSync } from 'node:fs';
import path from 'node:path';
import type { Entry, ZipFile } from 'yauzl';
import { FileTooLargeError, summarizeFile } from '../package-files';
import { buildSkill, type BuildResult } from '../skill-md';
import type { ImportSettings, PackageFile, ValidationIssue } from '../types';
import { openSourceFd } from './safe-open';
import { inSkill, joinRel, nearestSkillDir, rejection, type OpenedSource, type SourceItem } from './source';
import { ambiguousNames, normalEntryName, unsafeName } from './zip-names';

type Yauzl = typeof import('yauzl');
let yauzlModule: Promise<Yauzl> | undefined;

/** yauzl loads with the first zip read (an import, or an export reading a zip source), not with the core. */
export function loadYauzl(): Promise<Yauzl> {
  return (yauzlModule ??= import('yauzl').then((m) => m.default));
}

const ratioCheckFrom = 1024 * 1024;

interface SafeEntry {
  /** The normal spelling (see normalEntryName). */
  name: string;
  raw: string;
  entry: Entry;
}

export async function openZipSource(
  file: string,
  limits: ImportSettings,
  signal: AbortSignal,
): Promise<OpenedSource & { complete: boolean }> {
  // Opened without blocking and checked as a regular file: a FIFO swapped in after the path check cannot hang the import.
  const yauzl = await loadYauzl();
  const fd = await openSourceFd(file);
  let zip: ZipFile;
  try {
    zip = await yauzl.fromFdPromise(fd, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const entries: SafeEntry[] = [];
  const hostile: { name: string; rule: string; message: string; skillOnly?: boolean }[] = [];
  const items: SourceItem[] = [];
  let complete = true;
  try {
    let declaredTotal = 0;
    for await (const entry of readEntries(zip)) {
      signal.throwIfAborted();
      const raw = entryName(yauzl, entry);
      if (raw.endsWith('/')) continue;
      const unsafe = unsafeName(raw);
      if (unsafe) {
        hostile.push({
          name: raw,
          rule: 'zip-unsafe-path',
          message: `zip entry "${raw}" ${unsafe}; it is not extracted`,
        });
        continue;
      }
      const name = normalEntryName(raw);
      if (name === '') continue; // "." or "./": the archive's own folder
      if (isSymlink(entry)) {
        hostile.push({
          name,
          rule: 'zip-symlink',
          message: `zip entry "${name}" is a symbolic link; links are not imported from archives`,
        });
        continue;
      }
      if (entry.isEncrypted()) {
        hostile.push({ name, rule: 'zip-encrypted', message: `zip entry "${name}" is encrypted` });
        continue;
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > ratioCheckFrom && ratio > limits.zipMaxRatio) {
        hostile.push({
          name,
          rule: 'zip-bomb',
          message: `zip entry "${name}" expands ${Math.round(ratio)}x (to ${entry.uncompressedSize} bytes); more than ${limits.zipMaxRatio}x looks like a zip bomb`,
        });
        continue;
      }
      const cap =
        path.posix.basename(name) === 'SKILL.md' ? limits.skillMdMaxBytes : limits.packageFileMaxBytes;
      if (entry.uncompressedSize > cap) {
        hostile.push({
          name,
          rule: 'zip-entry-too-large',
          message: `zip entry "${name}" expands to ${entry.uncompressedSize} bytes; the limit is ${cap}`,
        });
        continue;
      }
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > limits.zipTotalMaxBytes) {
        // Keep listing names, so that every skill with a part past the cap is rejected whole, never imported half.
        hostile.push({
          name,
          rule: 'zip-too-large',
          message: `the archive expands to more than ${limits.zipTotalMaxBytes} bytes; "${name}" lies past that and is not read`,
        });
        continue;
      }
      if (entries.length + hostile.length >= limits.zipMaxEntries) {
        complete = false;
        items.push(
          rejection(
            '',
            name,
            'zip-too-many-entries',
            `the archive has more than ${limits.zipMaxEntries} entries; entries from "${name}" on are not read`,
          ),
        );
        break;
      }
      entries.push({ name, raw, entry });
    }
  } catch (error) {
    if (signal.aborted) throw error;
    complete = false;
    items.push(
      rejection(
        '',
        path.basename(file),
        'zip-corrupt',
        `the archive cannot be read past entry ${entries.length}: ${(error as Error).message}`,
      ),
    );
  }

  const listed = entries.map((e) => ({ ...e, crc32: e.entry.crc32, size: e.entry.uncompressedSize }));
  for (const a of ambiguousNames(listed)) hostile.push({ ...a, skillOnly: true });
  const byName = new Map<string, SafeEntry>();
  for (const e of entries) if (!byName.has(e.name)) byName.set(e.name, e);
  // A SKILL.md that was refused still marks its folder, so that skill is rejected as a whole.
  const named = [...byName.keys(), ...hostile.filter((h) => !unsafeName(h.name)).map((h) => h.name)];
  const dirs = new Set(
    named
      .filter((n) => path.posix.basename(n) === 'SKILL.md')
      .map((n) => (n.includes('/') ? path.posix.dirname(n) : '')),
  );
  const byDir = new Map<string, SafeEntry[]>([...dirs].map((d) => [d, []]));
  for (const e of byName.values()) {
    const dir = nearestSkillDir(e.name, dirs);
    if (dir !== null) byDir.get(dir)!.push(e);
  }
  const hostileByDir = new Map<string, ValidationIssue[]>();
  for (const h of hostile) {
    const issue: ValidationIssue = { severity: 'error', rule: h.rule, message: h.message, file: h.name };
    const dir = unsafeName(h.name) ? null : nearestSkillDir(h.name, dirs);
    if (dir === null) {
      if (!h.skillOnly) items.push({ type: 'rejection', relPath: h.name, file: h.name, issues: [issue] });
    } else hostileByDir.set(dir, [...(hostileByDir.get(dir) ?? []), issue]);
  }
  const zipFolder = path.basename(file).replace(/\.zip$/i, '');
  for (const dir of [...dirs].sort()) {
    const skillMdName = joinRel(dir, 'SKILL.md');
    const found = hostileByDir.get(dir);
    if (found) {
      items.push({ type: 'rejection', relPath: dir, file: skillMdName, issues: found });
      continue;
    }
    const members = byDir.get(dir)!;
    const folderName = dir === '' ? zipFolder : path.posix.basename(dir);
    items.push({
      type: 'candidate',
      relPath: dir,
      file: skillMdName,
      load: () => loadSkill(zip, members, dir, skillMdName, folderName, limits, signal),
    });
  }
  return { items, complete, close: async () => zip.close() };
}

async function loadSkill(
  zip: ZipFile,
  members: SafeEntry[],
  dir: string,
  skillMdName: string,
  folderName: string,
  limits: ImportSettings,
  signal: AbortSignal,
): Promise<BuildResult> {
  const files: PackageFile[] = [];
  let skillMd: Uint8Array | null = null;
  try {
    for (const m of members) {
      signal.throwIfAborted();
      if (m.name === skillMdName) {
        skillMd = await readEntry(zip, m.entry, limits.skillMdMaxBytes);
        continue;
      }
      files.push(
        await summarizeFile(inSkill(dir, m.name), () => zip.openReadStreamPromise(m.entry), {
          maxBytes: limits.packageFileMaxBytes,
          textCap: limits.referenceTextMaxBytes,
        }),
      );
    }
  } catch (error) {
    if (signal.aborted) throw error;
    const rule = error instanceof FileTooLargeError ? 'zip-entry-too-large' : 'zip-corrupt';
    return {
      ok: false,
      issues: [
        {
          severity: 'error',
          rule,
          message: `cannot read the package: ${(error as Error).message}`,
          file: skillMdName,
        },
      ],
    } satisfies BuildResult;
  }
  return buildSkill({
    bytes: skillMd ?? new Uint8Array(),
    file: skillMdName,
    relPath: dir,
    folderName,
    files,
    maxBytes: limits.skillMdMaxBytes,
    nameFolderMismatch: limits.nameFolderMismatch,
    nameFormat: limits.nameFormat,
  });
}

async function readEntry(zip: ZipFile, entry: Entry, cap: number): Promise<Uint8Array> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      stream.destroy();
      throw new FileTooLargeError(`${entry.fileName} is larger than ${cap} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The entries of a lazily opened archive, one at a time (the export's package reader reads them the same way). */
export async function* readEntries(zip: ZipFile): AsyncGenerator<Entry> {
  for (;;) {
    const next = await new Promise<Entry | null>((resolve, reject) => {
      const onEntry = (e: Entry) => done(() => resolve(e));
      const onEnd = () => done(() => resolve(null));
      const onError = (err: Error) => done(() => reject(err));
      const done = (f: () => void) => {
        zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
        f();
      };
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });
    if (next === null) return;
    yield next;
  }
}

function entryName(yauzl: Yauzl, entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
}

function isSymlink(entry: Entry): boolean {
  const unixMode = (entry.externalFileAttributes >>> 16) & 0o170000;
  return unixMode === 0o120000;
}
