// Opens source files so that nothing can make an import hang or read the wrong thing: never blocks on a FIFO, refuses
// anything but a regular file, and (given the identity the walk saw) refuses a file swapped after it was listed.
import fs, { constants, promises as fsp, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { CuratorError } from '../../../shared/errors';
import type { ValidationIssue } from '../types';

/** A source file that cannot be read as listed; `rule` is the rejection rule a report shows. */
export class SourceFileError extends Error {
  /** The file to name in the rejection, when it is not the skill's SKILL.md. */
  file?: string;
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

/** O_NONBLOCK: opening a FIFO returns at once instead of waiting (forever, in a thread-pool thread) for a writer. */
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const noFollow = constants.O_NOFOLLOW ?? 0;

export interface OpenRegularOptions {
  /** How the file is named in messages (a path relative to the source). */
  label: string;
  /** The identity the walk listed; a different file at that path is refused. */
  expect?: { dev: number; ino: number };
  /** Refuse a symbolic link as the last path component (for paths that the walk already resolved). */
  noFollow?: boolean;
}

/** Opens a regular file for reading, or throws SourceFileError saying why not. */
export async function openRegularFile(file: string, options: OpenRegularOptions): Promise<fsp.FileHandle> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, openFlags | (options.noFollow ? noFollow : 0));
  } catch (error) {
    throw openError(error, options);
  }
  try {
    checkOpened(await handle.stat(), options);
    return handle;
  } catch (error) {
    await handle.close();
    throw sourceFileError(error, options.label);
  }
}

/** The same as a plain descriptor, for readers that take one over and close it themselves (yauzl). */
export async function openRegularFd(file: string, options: OpenRegularOptions): Promise<number> {
  let fd: number;
  try {
    fd = await promisify(fs.open)(file, openFlags | (options.noFollow ? noFollow : 0));
  } catch (error) {
    throw openError(error, options);
  }
  try {
    checkOpened(await promisify(fs.fstat)(fd), options);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw sourceFileError(error, options.label);
  }
}

function openError(error: unknown, options: OpenRegularOptions): SourceFileError {
  if (options.noFollow && (error as NodeJS.ErrnoException).code === 'ELOOP')
    return new SourceFileError(
      'file-changed-during-import',
      `${options.label} became a symbolic link while the source was read`,
    );
  return sourceFileError(error, options.label);
}

function checkOpened(st: Stats, { label, expect }: OpenRegularOptions): void {
  if (!st.isFile()) throw notRegular(st, label);
  if (expect && (st.dev !== expect.dev || st.ino !== expect.ino))
    throw new SourceFileError(
      'file-changed-during-import',
      `${label} was replaced by another file while the source was read`,
    );
}

/** "a FIFO", "a socket", ...: what a non-regular file is, in words. */
export function fileTypeName(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return st.isFile() ? 'a regular file' : 'not a regular file';
}

export function notRegular(st: Stats, label: string): SourceFileError {
  return new SourceFileError(
    'not-a-regular-file',
    `${label} is ${fileTypeName(st)}, not a regular file; it is never opened`,
  );
}

/** Turns a file-system error about one path into a named rule: vanished, unreadable, or its path too long. */
export function sourceFileError(error: unknown, label: string): SourceFileError {
  if (error instanceof SourceFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new SourceFileError('file-vanished', `${label} vanished while the source was read`);
  if (code === 'ENAMETOOLONG')
    return new SourceFileError('path-too-long', `${label}: the path is too long to open`);
  if (code === 'EISDIR')
    return new SourceFileError('not-a-regular-file', `${label} is a folder, not a regular file`);
  const why = code ? `${code}` : (error as Error).message;
  return new SourceFileError('unreadable', `${label} cannot be read (${why})`);
}

export function issueOf(error: SourceFileError, file: string): ValidationIssue {
  return { severity: 'error', rule: error.rule, message: error.message, file };
}

/** Opens a source file that the path check saw as a regular file, refusing one swapped for a FIFO since. */
export async function openSourceFd(file: string): Promise<number> {
  try {
    return await openRegularFd(file, { label: file });
  } catch (error) {
    throw asSourceError(error, file);
  }
}

/** Reads a whole file given by a user (a states or labels file), refusing a FIFO or device instead of waiting on it. */
export async function readRegularFile(file: string): Promise<string> {
  const handle = await openSourceFile(file);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

export async function openSourceFile(file: string): Promise<fsp.FileHandle> {
  try {
    return await openRegularFile(file, { label: file });
  } catch (error) {
    throw asSourceError(error, file);
  }
}

function asSourceError(error: unknown, file: string): unknown {
  if (error instanceof SourceFileError && error.rule === 'file-vanished')
    return new CuratorError('NOT_FOUND', `Nothing to import at ${file}`);
  if (error instanceof SourceFileError) return new CuratorError('INVALID_ARGUMENT', error.message);
  return error;
}
