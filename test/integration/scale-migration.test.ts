// Migration 004 on a library the previous schema wrote: the warning counts, the import report counts and the indexes
// the Library screen reads come out equal to what the old queries gave, and new imports keep them right.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource } from '../../src/core/skills/importer';
import { openDb } from '../../src/core/store/db';
import { libraryStats, listSkills, listSources } from '../../src/core/store/library-repo';
import { migrations } from '../../src/core/store/migrations/index';
import { testJob } from '../fixtures/skills/library-fixture';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'sc-scale-mig-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const warning = { severity: 'warning', rule: 'x', message: 'm', file: 'SKILL.md' };

/** A library as the schema before migration 004 wrote it: every other migration applied, rows in the old columns. */
function oldLibrary(file: string): void {
  const db = new Database(file);
  sqliteVec.load(db);
  db.exec(
    'CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of migrations.filter((m) => ![4, 5, 6, 34].includes(m.id))) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.id, m.name, 'then');
  }
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'jsonl', '/old.jsonl', 'old', 'then')",
  ).run();
  const insert = db.prepare(
    `INSERT INTO skills (name, description, front_matter, body, full_text, source_id, rel_path, content_hash, warnings, created_at, updated_at)
     VALUES (?, 'd', '{}', 'b', 't', 1, ?, ?, ?, 'then', 'then')`,
  );
  for (let i = 0; i < 30; i++) {
    const warnings = JSON.stringify(i % 3 === 0 ? [warning, warning] : []);
    const id = insert.run(`old-${i}`, `old-${i}`, `h${i}`, warnings).lastInsertRowid;
    db.prepare(
      "INSERT INTO skills_fts (rowid, name, description, body, refs) VALUES (?, ?, 'd', 'b', '')",
    ).run(id, `old-${i}`);
  }
  const report = {
    sourceId: 1,
    added: Array.from({ length: 30 }, (_, i) => ({ name: `old-${i}`, relPath: `old-${i}` })),
    updated: [],
    unchanged: [],
    removed: [{ name: 'gone', relPath: 'gone' }],
    duplicates: [],
    rejected: [{ relPath: 'bad', file: 'old.jsonl:3', issues: [] }],
    warnings: [],
    conflicts: [],
    cancelled: false,
  };
  db.prepare("INSERT INTO import_reports (source_id, report, created_at) VALUES (1, ?, 'then')").run(
    JSON.stringify(report),
  );
  db.close();
}

describe('migration 004 (scale columns)', () => {
  it('converts an old library in place: counts, filters and report figures as before', () => {
    const file = path.join(dir, 'library.db');
    oldLibrary(file);
    const db = openDb(file);
    try {
      const stats = libraryStats(db);
      expect([stats.skills, stats.withWarnings]).toEqual([30, 10]);
      expect(stats.perSource[0]).toMatchObject({ skills: 30, warnings: 10 });
      const [source] = listSources(db);
      expect(source!.lastImport).toEqual({
        added: 30,
        updated: 0,
        unchanged: 0,
        removed: 1,
        rejected: 1,
        duplicates: 0,
        cancelled: false,
      });
      const warned = listSkills(db, { hasWarnings: true, limit: 50 });
      expect(warned.total).toBe(10);
      expect(warned.items.every((s) => s.warningCount === 2)).toBe(true);
      expect(listSkills(db, { hasWarnings: false }).total).toBe(20);
      // The Library screen's counts read indexes, never the rows with their large text columns.
      const plan = (sql: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join(' ');
      expect(plan('SELECT COUNT(*), SUM(warning_count > 0) FROM skills WHERE source_id = 1')).toContain(
        'USING COVERING INDEX skills_source_warnings',
      );
      expect(plan('SELECT id FROM skills WHERE warning_count > 0 ORDER BY name, id LIMIT 50')).toContain(
        'skills_warned_by_name',
      );
      // The importer's listing of a source and the report counts never walk past the large text columns.
      expect(
        plan(
          'SELECT id, rel_path, name, content_hash, source_digest, warning_count FROM skills WHERE source_id = 1',
        ),
      ).toContain('USING COVERING INDEX skills_source_place');
      expect(
        plan(
          'SELECT counts FROM import_reports WHERE source_id = 1 AND counts IS NOT NULL ORDER BY id DESC LIMIT 1',
        ),
      ).toContain('USING COVERING INDEX import_reports_counts');
    } finally {
      db.close();
    }
  });

  it('keeps the counts right through imports after the upgrade: added, edited away, re-imported unchanged', async () => {
    const file = path.join(dir, 'library.db');
    oldLibrary(file);
    const db = openDb(file);
    const deps = { db, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } };
    const dump = path.join(dir, 'new.jsonl');
    const line = (name: string, extra: object) =>
      JSON.stringify({ name, description: `About ${name}.`, body: `# ${name}\n`, ...extra });
    try {
      writeFileSync(dump, [line('new-a', {}), line('new-b', {})].join('\n') + '\n');
      const first = await importSource(deps, { path: dump }, testJob());
      expect(first.added).toHaveLength(2);
      const again = await importSource(deps, { path: dump }, testJob());
      expect(again.unchanged.map((s) => s.name)).toEqual(['new-a', 'new-b']);
      expect([again.added, again.updated]).toEqual([[], []]);
      writeFileSync(dump, [line('new-a', { description: 'Changed.' }), line('new-b', {})].join('\n') + '\n');
      const edited = await importSource(deps, { path: dump }, testJob());
      expect(edited.updated.map((s) => s.name)).toEqual(['new-a']);
      expect(edited.unchanged.map((s) => s.name)).toEqual(['new-b']);
      const source = listSources(db).find((s) => s.uri.endsWith('new.jsonl'))!;
      expect(source.lastImport).toMatchObject({ updated: 1, unchanged: 1, added: 0 });
      expect(libraryStats(db).skills).toBe(32);
    } finally {
      db.close();
    }
  });
});
