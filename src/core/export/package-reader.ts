// Finds the bytes of each exported skill's package files: from its source folder or zip when the file there still has
// the hash recorded at import, else from the reference text the library kept; anything else is reported missing.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
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
    `SELECT s.id, s.name, s.description, s.full_text, s.rel_path, src.kind, src.uri
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

async function fromZip(
  pkg: SkillPackage,
  wanted: readonly PackageFileRecord[],
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const byEntry = new Map(wanted.map((f) => [pkg.relPath === '' ? f.path : `${pkg.relPath}/${f.path}`, f]));
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(pkg.sourceUri, { lazyEntries: true, autoClose: false }, (err, z) =>
        err || !z ? reject(err) : resolve(z),
      ),
    );
  } catch {
    return out;
  }
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
        const f = byEntry.get(name);
        if (!f || entry.uncompressedSize !== f.size) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            const bytes = Buffer.concat(chunks);
            if (sha256(bytes) === f.sha256) out.set(f.path, bytes);
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } catch {
    // A damaged or replaced archive: the files not read by now are reported missing.
  } finally {
    zip.close();
  }
  return out;
}

/** SKILL.md from the library's full text, then every package file that can still be read exactly as imported. */
export async function readPackage(pkg: SkillPackage): Promise<{ files: ReadFile[]; missing: MissingFile[] }> {
  const files: ReadFile[] = [{ path: 'SKILL.md', bytes: Buffer.from(pkg.fullText, 'utf8') }];
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
            : `the ${pkg.sourceKind} source holds no package files; the library kept only its metadata`,
      });
  }
  return { files, missing };
}
