// Finds the bytes of each exported skill's package files: from its source folder or zip when the file there still has
// the hash recorded at import, else from the reference text the library kept; anything else is reported missing.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type yauzl from 'yauzl';
import { contentHash } from '../skills/package-files';
import { loadYauzl, readEntries } from '../skills/sources/zip';
import type { Db } from '../store/db';

export interface PackageFileRecord {
  path: string;
  size: number;
  sha256: string;
  textContent: string | null;
}

export interface SkillPackage {
  skillId: number;
  name: string;
  description: string;
  fullText: string;
  contentHash: string;
  sourceKind: string;
  sourceUri: string;
  relPath: string;
  files: PackageFileRecord[];
}

export interface ReadFile {
  path: string;
  bytes: Buffer;
}

export interface MissingFile {
  name: string;
  file: string;
  reason: string;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export function loadPackages(
  db: Db,
  skillIds: readonly number[],
): { packages: SkillPackage[]; unknown: number[] } {
  const rowOf = db.prepare(
    `SELECT s.id, s.name, s.description, s.full_text, s.content_hash, s.rel_path, src.kind, src.uri
     FROM skills s JOIN sources src ON src.id = s.source_id WHERE s.id = ?`,
  );
  const filesOf = db.prepare(
    'SELECT path, size, sha256, text_content FROM skill_files WHERE skill_id = ? ORDER BY path',
  );
  const packages: SkillPackage[] = [];
  const unknown: number[] = [];
  for (const id of skillIds) {
    const r = rowOf.get(id) as
      | {
          id: number;
          name: string;
          description: string;
          full_text: string;
          content_hash: string;
          rel_path: string;
          kind: string;
          uri: string;
        }
      | undefined;
    if (!r) {
      unknown.push(id);
      continue;
    }
    const files = (
      filesOf.all(id) as { path: string; size: number; sha256: string; text_content: string | null }[]
    ).map((f) => ({
      path: f.path,
      size: f.size,
      sha256: f.sha256,
      textContent: f.text_content,
    }));
    packages.push({
      skillId: r.id,
      name: r.name,
      description: r.description,
      fullText: r.full_text,
      contentHash: r.content_hash,
      sourceKind: r.kind,
      sourceUri: r.uri,
      relPath: r.rel_path,
      files,
    });
  }
  return { packages, unknown };
}

async function fromFolder(pkg: SkillPackage, file: PackageFileRecord): Promise<Buffer | null> {
  const root = path.resolve(pkg.sourceUri, pkg.relPath);
  const full = path.resolve(root, file.path);
  if (!full.startsWith(root + path.sep)) return null;
  try {
    const stat = await fsp.lstat(full);
    if (!stat.isFile() || stat.size !== file.size) return null;
    const bytes = await fsp.readFile(full);
    return sha256(bytes) === file.sha256 ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * The wanted files of one skill from its zip, each checked against its recorded hash. Entries are named the way the
 * import named them, and an entry the import refused (`../evil/SKILL.md`) or one that cannot be read is passed over:
 * it must not hide the entries after it.
 */
async function fromZip(
  pkg: SkillPackage,
  wanted: readonly PackageFileRecord[],
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const byEntry = new Map(wanted.map((f) => [pkg.relPath === '' ? f.path : `${pkg.relPath}/${f.path}`, f]));
  const yauzlModule = await loadYauzl();
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzlModule.openPromise(pkg.sourceUri, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch {
    return out;
  }
  try {
    for await (const entry of readEntries(zip)) {
      const f = byEntry.get(entryName(yauzlModule, entry));
      if (!f || out.has(f.path) || entry.uncompressedSize !== f.size) continue;
      const bytes = await readEntry(zip, entry).catch(() => null);
      if (bytes && sha256(bytes) === f.sha256) out.set(f.path, bytes);
    }
  } catch {
    // A damaged or replaced archive: the files not read by now are reported missing.
  } finally {
    zip.close();
  }
  return out;
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The entry's name as the zip source read it at import (raw bytes, CP437 or UTF-8, leading "./" dropped). */
function entryName(yauzlModule: typeof yauzl, entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  return yauzlModule
    .getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false)
    .replace(/^(\.\/)+/, '');
}

/**
 * SKILL.md's bytes as imported. The library keeps its text without the byte-order mark; the content hash (over the
 * original bytes) tells whether the file had one.
 */
function skillMdBytes(pkg: SkillPackage): Buffer {
  const text = Buffer.from(pkg.fullText, 'utf8');
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
  const files = pkg.files.map((f) => ({ path: f.path, sha256: f.sha256 }));
  return contentHash(withBom, files) === pkg.contentHash ? withBom : text;
}

/** SKILL.md from the library's full text, then every package file that can still be read exactly as imported. */
export async function readPackage(pkg: SkillPackage): Promise<{ files: ReadFile[]; missing: MissingFile[] }> {
  const files: ReadFile[] = [{ path: 'SKILL.md', bytes: skillMdBytes(pkg) }];
  const missing: MissingFile[] = [];
  const zipped = pkg.sourceKind === 'zip' ? await fromZip(pkg, pkg.files) : new Map<string, Buffer>();
  for (const f of pkg.files) {
    let bytes = pkg.sourceKind === 'folder' ? await fromFolder(pkg, f) : (zipped.get(f.path) ?? null);
    if (!bytes && f.textContent !== null) {
      const text = Buffer.from(f.textContent, 'utf8');
      if (sha256(text) === f.sha256) bytes = text;
    }
    if (bytes) files.push({ path: f.path, bytes });
    else
      missing.push({
        name: pkg.name,
        file: f.path,
        reason:
          pkg.sourceKind === 'folder' || pkg.sourceKind === 'zip'
            ? `not found unchanged in ${pkg.sourceUri} (moved, edited or deleted since import)`
            : `the library kept only the hash of this file (it keeps the text of references/ files alone); it is in ${pkg.sourceUri}`,
      });
  }
  return { files, missing };
}
