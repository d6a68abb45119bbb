// Migration 17 on a library the previous schema wrote: model scores cached under a bare model id may be q8 scores
// (dtype auto picked q8 on the CPU before the engine id named the weights), so they go; the lexical engine's stay.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/core/store/db';
import { migrations } from '../../src/core/store/migrations/index';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'sc-cache-mig-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 17 (score-cache-weights)', () => {
  it('drops cached model scores and keeps the lexical engine’s', () => {
    const file = path.join(dir, 'library.db');
    const old = new Database(file);
    sqliteVec.load(old);
    old.exec(
      'CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const m of migrations.filter((m) => m.id !== 17)) {
      old.exec(m.sql);
      m.afterSql?.(old);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.id, m.name, 'then');
    }
    const insert = old.prepare(
      "INSERT INTO score_cache (model_id, instruction_version, a_hash, b_hash, r, truncated, created_at) VALUES (?, 'v', 'a', 'b', 1.5, 0, 'then')",
    );
    for (const id of ['Qwen3-Reranker-0.6B', 'lexical:bm25-calibrated-v3']) insert.run(id);
    old.close();

    const db = openDb(file);
    try {
      expect(db.prepare('SELECT model_id FROM score_cache').pluck().all()).toEqual([
        'lexical:bm25-calibrated-v3',
      ]);
      expect(db.prepare('SELECT 1 FROM schema_migrations WHERE id = 17').get()).toBeDefined();
    } finally {
      db.close();
    }
  });
});
