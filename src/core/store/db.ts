// Opens the library file: one SQLite database in WAL mode with sqlite-vec loaded and every migration applied in order.
// A file it cannot safely use (written by a newer build, damaged, or not writable) is refused or opened read-only,
// with a message that says which and what to do, and nothing is written into it.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { CuratorError } from '../../shared/errors';
import { backupBeforeMigration } from './backup';
import { damagedLibraryError, isCorruption } from './damaged-library';
import { migrations } from './migrations/index';
import { settleEmptyConversion } from './text-index-conversion';
import { registerTextFunctions } from './text-packing';

export type Db = Database.Database;

export interface OpenDbOptions {
  /** Load a specific better-sqlite3 binary (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** Path to the sqlite-vec loadable extension, when it is not where the npm package says (packaged app). */
  vecExtensionPath?: string;
  /**
   * true: open for reading only. Unset: read-write, or read-only when the file or its folder is not writable
   * (check `db.readonly`). false: read-write or a clear error.
   */
  readonly?: boolean;
}

// better-sqlite3 reads this once, when it loads: file: names let a library in a read-only folder open as immutable.
process.env.SQLITE_USE_URI ??= '1';

const knownIds = new Set(migrations.map((m) => m.id));
const latestId = Math.max(...knownIds);

/** True when this process cannot write the library (SQLite also needs to create -wal and -shm files beside it). */
export function libraryIsReadOnly(file: string): boolean {
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  return existsSync(file) ? !writable(file) || !writable(path.dirname(file)) : false;
}

/**
 * A WAL library needs its -shm file to be read; in a folder this process cannot write, SQLite cannot create it, so
 * the file is opened as immutable (nothing else may change it meanwhile: it is not writable here).
 */
function readableName(file: string): string {
  const canCreateShm = (() => {
    try {
      accessSync(path.dirname(file), constants.W_OK);
      return true;
    } catch {
      return false;
    }
  })();
  if (canCreateShm || existsSync(`${file}-shm`)) return file;
  return `${pathToFileURL(path.resolve(file)).href}?immutable=1`;
}

export function openDb(file: string, options: OpenDbOptions = {}): Db {
  const readonly = options.readonly ?? libraryIsReadOnly(file);
  if (!readonly && libraryIsReadOnly(file))
    throw new CuratorError(
      'UNAVAILABLE',
      `The library ${file} is read-only (the file or its folder is not writable); this needs to change it`,
      { library: { file, reason: 'read-only' } },
    );
  const db = new Database(readonly ? readableName(file) : file, {
    readonly,
    fileMustExist: readonly,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    // The schema reads skill texts through unpack_text() (text-packing.ts).
    registerTextFunctions(db);
    db.pragma('busy_timeout = 5000');
    // The first read of the file: a damaged header or schema shows here, before anything is written.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (!readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (options.vecExtensionPath) db.loadExtension(options.vecExtensionPath);
    else sqliteVec.load(db);
    const pending = checkVersion(db, file);
    if (pending.length > 0 && readonly && appliedIds(db).size > 0)
      throw new CuratorError(
        'UNAVAILABLE',
        `The library ${file} is read-only and needs an upgrade by this version of Skill Curator; open it once where it is writable`,
        { library: { file, reason: 'needs-upgrade' } },
      );
    if (!readonly) migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    if (isCorruption(error)) throw damagedLibraryError(file, error, options.nativeBinding);
    throw error;
  }
}

function appliedIds(db: Db): Set<number> {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").get();
  if (!hasTable) return new Set();
  return new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[]);
}

/** Refuses a library that a newer build migrated; returns the migrations this build still has to apply. */
function checkVersion(db: Db, file: string): number[] {
  const applied = appliedIds(db);
  const unknown = [...applied].filter((id) => !knownIds.has(id)).sort((a, b) => a - b);
  if (unknown.length > 0) {
    // Name the change this build lacks: with id ranges per area it need not be the newest id.
    const first = db.prepare('SELECT id, name FROM schema_migrations WHERE id = ?').get(unknown[0]) as {
      id: number;
      name: string;
    };
    const more = unknown.length > 1 ? ` and ${unknown.length - 1} more` : '';
    throw new CuratorError(
      'UNAVAILABLE',
      `The library ${file} was written by a newer version of Skill Curator (library schema ${first.id} "${first.name}"${more}; ` +
        `this version knows schema ${latestId} and the ones before it, but not that one). Update Skill Curator, or open another library with --data or --db.`,
      { library: { file, reason: 'newer', librarySchema: first.id, knownSchema: latestId, unknown } },
    );
  }
  return [...knownIds].filter((id) => !applied.has(id));
}

/**
 * Applies the migrations the file has not seen yet, each in its own transaction. Applied migrations are never edited.
 * An existing library is checked and copied to a backup first, so a failed upgrade loses nothing.
 */
export function migrate(db: Db, file?: string): void {
  const ids = migrations.map((m) => m.id);
  if (new Set(ids).size !== ids.length) throw new Error('Two migrations share an id');
  const applied = appliedIds(db);
  const pending = [...migrations].sort((a, b) => a.id - b.id).filter((m) => !applied.has(m.id));
  if (pending.length === 0) return settleEmptyConversion(db);
  if (applied.size > 0 && file) backupBeforeMigration(db, file, Math.max(...applied));
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      m.afterSql?.(db);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
        m.id,
        m.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
  settleEmptyConversion(db);
}
