// Each SKILL.md text stored once (issue 12): the body as an offset into the full text, the full-text index with external
// content. Checked on real imports: every writer (import, update, re-import, trash and undo, source removal) keeps the
// index equal to its content (FTS5 integrity-check against the content), and search answers as it did.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchKeyword } from '../../src/core/search/keyword';
import { removeSource } from '../../src/core/skills/remove-source';
import { importSource } from '../../src/core/skills/importer';
import { deleteToTrash, undoLastDelete } from '../../src/core/sources/trash';
import { openDb, type Db } from '../../src/core/store/db';
import { bodyStorage } from '../../src/core/store/skills-repo';
import { conversionState } from '../../src/core/store/text-index-conversion';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let root: string;
beforeEach(() => {
  lib = tempLibrary();
  root = mkdtempSync(path.join(os.tmpdir(), 'sc-once-'));
});
afterEach(() => {
  lib.close();
  rmSync(root, { recursive: true, force: true });
});

/** FTS5 compares the index with its content table when rank is 1; it throws on any difference. */
export function indexMatchesContent(db: Db, table = 'skills_fts'): void {
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`).run();
}

const names = (db: Db, q: string) => searchKeyword(db, { query: q }).hits.map((h) => h.skill.name);
const now = () => new Date().toISOString();

function writeLibrary(): void {
  writeSkill(
    root,
    'oven-bake',
    skillMd('oven-bake', 'Bake bread in an oven', '# Oven\n\nPreheat the oven.\n'),
    {
      'references/temps.md': 'Sourdough wants zanzibarite heat.',
      'references/alt.md': 'Flatbread wants quokkaline stones.',
      'scripts/run.sh': 'echo bake',
    },
  );
  writeSkill(
    root,
    'kettle-boil',
    skillMd('kettle-boil', 'Boil water 🫖 in a kettle', '# Kettle\n\nFill it.\n'),
  );
  writeSkill(
    root,
    'marks',
    skillMd('marks', 'Text with \u0002marks\u0003 inside', 'Body \u0002 wombatfish \u0003.\n'),
  );
}

describe('skill text stored once', () => {
  it('a new library has the external-content index and no conversion to do', () => {
    expect(conversionState(lib.db)).toBeNull();
    const sql = lib.db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'skills_fts'")
      .pluck()
      .get() as string;
    expect(sql).toContain("content = 'skills_fts_source'");
    expect(
      lib.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'skills_fts_next'").get(),
    ).toBeUndefined();
  });

  it('stores each body once and reads it back equal; the index needs no copy of the text', async () => {
    writeLibrary();
    await importSource(lib.deps, { path: root }, testJob());
    const rows = lib.db
      .prepare('SELECT name, body, body_own AS own, full_text AS fullText FROM skills ORDER BY name')
      .all() as { name: string; body: string; own: string; fullText: string }[];
    expect(rows.map((r) => r.name)).toEqual(['kettle-boil', 'marks', 'oven-bake']);
    for (const r of rows) {
      expect(r.own).toBe('');
      expect(r.fullText.endsWith(r.body)).toBe(true);
      expect(r.body.length).toBeGreaterThan(0);
    }
    expect(rows[0]!.body).toBe('# Kettle\n\nFill it.\n');
    expect(
      lib.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'skills_fts_content'").get(),
    ).toBeUndefined();
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'zanzibarite')).toEqual(['oven-bake']);
    expect(names(lib.db, 'wombatfish')).toEqual(['marks']);
    const snippet = searchKeyword(lib.db, { query: 'wombatfish' }).hits[0]!.snippet;
    expect(snippet).toBe('Body   \u0002wombatfish\u0003  .\n');
  });

  it('keeps the index equal to its content through update, re-import, trash and undo, and source removal', async () => {
    writeLibrary();
    const first = await importSource(lib.deps, { path: root }, testJob());
    indexMatchesContent(lib.db);
    // Update: the body and a reference change, another reference goes.
    writeSkill(
      root,
      'oven-bake',
      skillMd('oven-bake', 'Bake bread in an oven', '# Oven\n\nPreheat to gryphonite.\n'),
      {
        'references/temps.md': 'Sourdough wants basiliskine heat.',
        'scripts/run.sh': 'echo bake',
      },
    );
    rmSync(path.join(root, 'oven-bake/references/alt.md'));
    const second = await importSource(lib.deps, { path: root }, testJob());
    expect(second.updated.map((s) => s.name)).toEqual(['oven-bake']);
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'zanzibarite')).toEqual([]);
    expect(names(lib.db, 'quokkaline')).toEqual([]);
    expect(names(lib.db, 'basiliskine')).toEqual(['oven-bake']);
    expect(names(lib.db, 'gryphonite')).toEqual(['oven-bake']);
    // Re-import, nothing changed.
    const third = await importSource(lib.deps, { path: root }, testJob());
    expect(third.unchanged).toHaveLength(3);
    indexMatchesContent(lib.db);
    // Trash and undo, the skill with references first, then the whole source.
    const oven = lib.db.prepare("SELECT id FROM skills WHERE name = 'oven-bake'").pluck().get() as number;
    deleteToTrash(lib.db, { skillIds: [oven] }, now());
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'basiliskine')).toEqual([]);
    expect(undoLastDelete(lib.db, now()).restoredSkillIds).toEqual([oven]);
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'basiliskine')).toEqual(['oven-bake']);
    deleteToTrash(lib.db, { sourceId: first.sourceId }, now());
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'kettle')).toEqual([]);
    undoLastDelete(lib.db, now());
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'kettle')).toEqual(['kettle-boil']);
    // A file changed by hand in SQL still keeps the index right (the triggers, not the importer, keep it).
    lib.db
      .prepare("UPDATE skill_files SET text_content = 'Now manticorean.' WHERE path = 'references/temps.md'")
      .run();
    indexMatchesContent(lib.db);
    expect(names(lib.db, 'manticorean')).toEqual(['oven-bake']);
    // Source removal deletes the skills (files by cascade).
    const sourceId = lib.db.prepare('SELECT id FROM sources').pluck().get() as number;
    removeSource(lib.deps, sourceId);
    indexMatchesContent(lib.db);
    expect(lib.db.prepare('SELECT COUNT(*) FROM skills_fts_vocab').pluck().get()).toBe(0);
  });

  it('refuses to move a package file to another skill (its text would leave one index row unseen)', async () => {
    writeLibrary();
    await importSource(lib.deps, { path: root }, testJob());
    expect(() => lib.db.prepare('UPDATE skill_files SET skill_id = skill_id + 1').run()).toThrow(
      /cannot move/,
    );
    indexMatchesContent(lib.db);
  });

  it('bodyStorage: an offset in characters as SQLite counts them, or its own copy when it cannot be one', () => {
    const db = openDb(path.join(root, 'probe.db'));
    try {
      const readBack = (full: string, body: string) => {
        const { bodyOwn, bodyStart } = bodyStorage(full, body);
        return db
          .prepare('SELECT CASE WHEN ? IS NULL THEN ? ELSE substr(?, ? + 1) END')
          .pluck()
          .get(bodyStart, bodyOwn, full, bodyStart);
      };
      for (const [full, body] of [
        ['---\nname: é🫖x\n---\n\nbody ✓ 🫖\n', 'body ✓ 🫖\n'],
        ['---\nname: a\n---\n', ''],
        ['nul \u0000 in front\nbody', 'body'],
        ['the body is not the end', 'other text'],
      ] as const)
        expect(readBack(full, body)).toBe(body);
      expect(bodyStorage('a\nbody', 'body').bodyStart).toBe(2);
      expect(bodyStorage('front \ud83d\udc16 pair', '\udc16 pair').bodyStart).toBeNull();
      expect(bodyStorage('x', 'y')).toEqual({ bodyOwn: 'y', bodyStart: null });
    } finally {
      db.close();
    }
  });
});
