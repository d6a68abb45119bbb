// A library file SQLite reports as damaged: say what quick_check found and where the last backup is; write nothing.
import Database from 'better-sqlite3';
import { CuratorError } from '../../shared/errors';
import { backupsDir, lastBackup } from './backup';
import { registerTextFunctions } from './text-packing';

export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** PRAGMA quick_check on a read-only connection, its first lines, or why it could not run. */
function quickCheck(file: string, nativeBinding?: string): string {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...(nativeBinding ? { nativeBinding } : {}),
    });
    // The check reads the generated text columns, which call it.
    registerTextFunctions(db);
    const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join('; ');
  } catch (error) {
    return `could not run (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    db?.close();
  }
}

export function damagedLibraryError(file: string, cause: unknown, nativeBinding?: string): CuratorError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const check = quickCheck(file, nativeBinding);
  const backup = lastBackup(file);
  const advice = backup
    ? `The last backup is ${backup}: move ${file} and its -wal and -shm files aside, then copy the backup in its place.`
    : `No backup was found in ${backupsDir(file)}. \`sqlite3 ${file} .recover\` may save what is left.`;
  return new CuratorError(
    'UNAVAILABLE',
    `The library ${file} is damaged (${reason}); quick_check: ${check}. Nothing was written to it. ${advice}`,
    { library: { file, reason: 'damaged', quickCheck: check, lastBackup: backup ?? null } },
  );
}
