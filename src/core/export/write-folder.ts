// Writes an export folder whole or not at all: every file goes into a hidden folder beside the destination, which is
// renamed into place at the end. A file the file system will not take (a case twin on a case-insensitive disk, a name
// too long) is left out and listed; any other failure removes the partial folder and fails the export.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { MissingFile } from './package-reader';

export interface FolderEntry {
  /** Relative to the destination, with forward slashes. */
  path: string;
  bytes: Buffer;
  skill: string;
  /** Relative to its skill's folder. */
  file: string;
}

const refusedByName: Record<string, string> = {
  EEXIST: 'another file of the package has this name on this file system (names that differ only in case?)',
  ENOTDIR: 'a file of the package is where its folder should be',
  EISDIR: 'a folder of the package has this name',
  ENAMETOOLONG: 'the name is too long for this file system',
  EILSEQ: 'this file system does not accept the characters of its name',
  EINVAL: 'this file system does not accept its name',
};

export async function writeFolder(
  destination: string,
  entries: readonly FolderEntry[],
): Promise<(MissingFile & { path: string })[]> {
  const parent = path.dirname(destination);
  await fsp.mkdir(parent, { recursive: true });
  const tmp = path.join(
    parent,
    `.${path.basename(destination)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  await fsp.mkdir(tmp);
  const refused: (MissingFile & { path: string })[] = [];
  try {
    for (const e of entries) {
      const file = path.join(tmp, ...e.path.split('/'));
      try {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        await fsp.writeFile(file, e.bytes, { flag: 'wx' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        const why = refusedByName[code];
        if (!why) throw error;
        refused.push({ path: e.path, name: e.skill, file: e.file, reason: `not written: ${why} (${code})` });
      }
    }
    // The destination may be an empty folder the user chose; it is replaced by the finished one.
    await fsp.rmdir(destination).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await fsp.rename(tmp, destination);
  } catch (error) {
    await fsp.rm(tmp, { recursive: true, force: true });
    throw error;
  }
  return refused;
}
