// Opens the library file: one SQLite database in WAL mode with sqlite-vec loaded and every migration applied in order.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { migrations } from './migrations/index';

export type Db = Database.Database;

export interface OpenDbOptions {
  /** Load a specific better-sqlite3 binary (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** Path to the sqlite-vec loadable extension, when it is not where the npm package says (packaged app). */
  vecExtensionPath?: string;
  readonly?: boolean;
}

export function openDb(file: string, options: OpenDbOptions = {}): Db {
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (options.vecExtensionPath) db.loadExtension(options.vecExtensionPath);
  else sqliteVec.load(db);
  if (!options.readonly) migrate(db);
  return db;
}

/** Applies the migrations the file has not seen yet, each in its own transaction. Applied migrations are never edited. */
export function migrate(db: Db): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare('SELECT id FROM schema_migrations')
      .all()
      .map((row) => (row as { id: number }).id),
  );
  const ids = migrations.map((m) => m.id);
  if (new Set(ids).size !== ids.length) throw new Error('Two migrations share an id');
  for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
        m.id,
        m.name,
        new Date().toISOString(),
      );
    })();
  }
}
