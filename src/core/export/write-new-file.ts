// A file an export writes (states, an evaluation report): never over an existing file unless asked, and never half
// written: it is written beside the target and renamed into place.
import { randomBytes } from 'node:crypto';
import { rm, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import { missingPathError } from '../missing-path';

/** The absolute target, once it is known that it may be written: its folder is there, and no file is unless overwrite. */
export async function writableTarget(file: string, overwrite: boolean): Promise<string> {
  const target = path.resolve(file);
  const existing = await stat(target).catch(() => null);
  if (existing && !overwrite)
    throw new CuratorError('CONFLICT', `${target} already exists; choose a new file or ask to overwrite it`);
  if (existing?.isDirectory())
    throw new CuratorError('INVALID_ARGUMENT', `${target} is a folder, not a file`);
  const dir = path.dirname(target);
  if (!(await stat(dir).catch(() => null))?.isDirectory())
    throw missingPathError(`Cannot write ${target}: there is no folder ${dir}`, target);
  return target;
}

/** Writes beside the target and renames, so a reader never sees half a file and a failed write leaves none. */
export async function writeNewFile(file: string, content: string, overwrite: boolean): Promise<string> {
  const target = await writableTarget(file, overwrite);
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    await writeFile(tmp, content, { flag: 'wx' });
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new CuratorError('INVALID_ARGUMENT', `Cannot write ${target}: ${(e as Error).message}`);
  }
  return target;
}
