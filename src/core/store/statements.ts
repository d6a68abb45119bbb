// Prepared statements kept per connection: the importer runs the same dozen statements for every skill, and
// preparing one costs more than running it.
import type Database from 'better-sqlite3';
import type { Db } from './db';

const cache = new WeakMap<Db, Map<string, Database.Statement>>();

export function stmt(db: Db, sql: string): Database.Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let s = byText.get(sql);
  if (!s) byText.set(sql, (s = db.prepare(sql)));
  return s;
}
