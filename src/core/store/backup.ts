// Copies of the library file: one before each schema upgrade (kept in <folder>/backups) and on request.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { Db } from './db';
import { damagedLibraryError } from './damaged-library';

/** Automatic backups kept per library file; older ones are removed. */
const KEEP = 3;

export function backupsDir(file: string): string {
  return path.join(path.dirname(path.resolve(file)), 'backups');
}

function backupPrefix(file: string): string {
  return `${path.basename(file, path.extname(file))}-`;
}

/** The newest backup of this library file, if any. */
export function lastBackup(file: string): string | undefined {
  const dir = backupsDir(file);
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((name) => name.startsWith(backupPrefix(file)) && name.endsWith('.db'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || b.localeCompare(a))[0];
}

/**
 * A consistent copy of the whole library (the WAL included) in one file, written while others may read and write.
 * VACUUM INTO is synchronous, unlike better-sqlite3's db.backup(), so opening the library can call it.
 */
export function backupLibrary(db: Db, dest: string): string {
  const target = path.resolve(dest);
  if (existsSync(target)) throw new CuratorError('CONFLICT', `${target} already exists; choose a new file`);
  mkdirSync(path.dirname(target), { recursive: true });
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}

/** Checks the file and copies it before an upgrade; a damaged file is refused before anything is written. */
export function backupBeforeMigration(db: Db, file: string, schemaId: number): string {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw damagedLibraryError(file, new Error(String(check)));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dest = backupLibrary(
    db,
    path.join(backupsDir(file), `${backupPrefix(file)}schema${schemaId}-${stamp}.db`),
  );
  const dir = backupsDir(file);
  const old = readdirSync(dir)
    .filter((name) => name.startsWith(backupPrefix(file)) && name.endsWith('.db'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || b.localeCompare(a))
    .slice(KEEP);
  for (const f of old) rmSync(f, { force: true });
  return dest;
}
