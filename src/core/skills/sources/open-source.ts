// Picks the source reader for a path: folder, .zip, JSONL dump or a single SKILL.md (detected when the kind is not given).
import { promises as fsp, type Stats } from 'node:fs';
import { CuratorError } from '../../../shared/errors';
import type { ImportSettings, SourceKind } from '../types';
import { openFolderSource, type FolderSourceOptions } from './folder';
import { openJsonlSource, type JsonlSourceOptions } from './jsonl';
import { fileTypeName, openSourceFile } from './safe-open';
import { openSingleFileSource } from './single-file';
import type { OpenedSource } from './source';
import { openZipSource } from './zip';

export async function detectSourceKind(file: string): Promise<SourceKind> {
  const st = await statOrThrow(file);
  if (st.isDirectory()) return 'folder';
  if (!st.isFile()) throw notFileOrFolder(file, st);
  if (/\.zip$/i.test(file)) return 'zip';
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  const handle = await openSourceFile(file);
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  } finally {
    await handle.close();
  }
  return 'file';
}

export async function openSource(
  kind: SourceKind,
  file: string,
  limits: ImportSettings,
  signal: AbortSignal,
  options: FolderSourceOptions & JsonlSourceOptions = {},
): Promise<OpenedSource & { complete?: boolean }> {
  await checkSourcePath(kind, file);
  switch (kind) {
    case 'folder':
      return openFolderSource(file, limits, signal, options);
    case 'zip':
      try {
        return await openZipSource(file, limits, signal);
      } catch (error) {
        if (signal.aborted || error instanceof CuratorError) throw error;
        throw new CuratorError(
          'UNSAFE_INPUT',
          `${file} is not a readable zip archive: ${(error as Error).message}`,
        );
      }
    case 'jsonl':
      return openJsonlSource(file, limits, signal, options);
    case 'file':
      return openSingleFileSource(file, limits);
  }
}

/** Throws a clear error when the path is missing or is not what the kind needs. */
export async function checkSourcePath(kind: SourceKind, file: string): Promise<void> {
  if (!sourceKinds.includes(kind)) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Unknown source kind "${String(kind)}"; use ${sourceKinds.join(', ')}`,
    );
  }
  const st = await statOrThrow(file);
  if (kind === 'folder' && !st.isDirectory())
    throw new CuratorError('INVALID_ARGUMENT', `${file} is not a folder`);
  if (kind !== 'folder' && !st.isFile()) throw notFileOrFolder(file, st, 'is not a file');
}

/** A FIFO, socket or device is never opened: reading one can block forever. */
function notFileOrFolder(file: string, st: Stats, what = 'is neither a file nor a folder'): CuratorError {
  const type = st.isDirectory() ? '' : ` (it is ${fileTypeName(st)}, which is never opened)`;
  return new CuratorError('INVALID_ARGUMENT', `${file} ${what}${type}`);
}

const sourceKinds: SourceKind[] = ['folder', 'zip', 'file', 'jsonl'];

async function statOrThrow(file: string) {
  try {
    return await fsp.stat(file);
  } catch {
    throw new CuratorError('NOT_FOUND', `Nothing to import at ${file}`);
  }
}
