// Each skill text stored compressed (issue 12, migration 034): large texts as zlib BLOBs, small ones or ones deflate
// as plain TEXT, and every reader (the generated full_text and body, the index's view, the API) sees the text exactly
// as before. Checked on real imports and on a library the previous schema wrote, converted in place through a kill -9.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { resumeLibraryConversion } from '../../src/core/api/library-conversion';
import { loadPackages } from '../../src/core/export/package-reader';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import {
  getConflict,
  getSkill,
  importSource,
  listConflicts,
  searchKeyword,
} from '../../src/core/skills/index';
import { conflictDiff } from '../../src/core/sources/conflict-diff';
import { deleteToTrash, undoLastDelete } from '../../src/core/sources/trash';
import { openDb, type Db } from '../../src/core/store/db';
import { conversionState, type ConversionResult } from '../../src/core/store/text-index-conversion';
import { spawnTs } from '../fixtures/jobs/child-process';
import { openUnmigrated } from '../fixtures/skills/old-text-library';
import { writeUnpackedLibrary } from '../fixtures/skills/unpacked-library';
import {
  repoRoot,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

const sampleLibrary = path.join(repoRoot, 'resources/sample-library');
let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'sc-packed-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** FTS5 compares the index with its content (the view, read through unpack_text) when rank is 1; throws on a difference. */
const indexMatchesContent = (db: Db) =>
  db.prepare("INSERT INTO skills_fts (skills_fts, rank) VALUES ('integrity-check', 1)").run();
const storedAs = (db: Db, name: string) =>
  db.prepare('SELECT typeof(full_text_stored) FROM skills WHERE name = ?').pluck().get(name);
const idOf = (db: Db, name: string) =>
  db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;

/** Seeded letters from U+0080-U+07FF (two UTF-8 bytes each, spread evenly): too short and even for deflate to shrink. */
function incompressible(length: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCodePoint(0x80 + ((x >>> 8) % 0x780));
  }
  return out;
}

describe('skill texts stored packed', () => {
  let lib: TempLibrary;
  beforeEach(() => (lib = tempLibrary()));
  afterEach(() => lib.close());

  it('stores large texts compressed and small ones plain, and gives every text back exactly', async () => {
    const root = path.join(lib.dir, 'src');
    // One match only: FTS5 snippets over thousands of matches in one text take minutes (before packing too).
    const huge = `# Huge\n\n${'Stir the ünïcödé soup 🍲, then taste it.\n'.repeat(22_000)}Use a wooden spoon.\n`;
    const texts: Record<string, string> = {
      unicode: skillMd(
        'unicode',
        'Ünïcödé 🫖 text',
        `# 漢字とかな\n\nמימין לשמאל, e\u0301 combining, 👩‍👩‍👧 family.\n`.repeat(20),
      ),
      empty: skillMd('empty', 'No body at all', ''),
      huge: skillMd('huge', 'A body close to the 1 MiB limit', huge),
      tiny: skillMd('tiny', 'Short', 'Hi.\n'),
    };
    for (const [name, text] of Object.entries(texts)) writeSkill(root, name, text);
    const bytes = (t: string) => Buffer.byteLength(t, 'utf8');
    expect(bytes(texts.huge!)).toBeGreaterThan(900_000);

    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.added).toHaveLength(4);
    const db = lib.db;
    expect(storedAs(db, 'unicode')).toBe('blob');
    expect(storedAs(db, 'huge')).toBe('blob');
    expect(storedAs(db, 'tiny')).toBe('text');
    expect(
      db.prepare("SELECT length(full_text_stored) FROM skills WHERE name = 'huge'").pluck().get(),
    ).toBeLessThan(bytes(texts.huge!) / 20);
    for (const [name, text] of Object.entries(texts)) {
      const skill = getSkill(db, idOf(db, name));
      expect(skill.fullText).toBe(text);
      expect(text.endsWith(skill.body)).toBe(true);
      expect(skill.body).toBe(text.slice(text.indexOf('---\n\n', 4) + 5));
      const [pkg] = loadPackages(db, [skill.id]).packages;
      expect(pkg!.fullText).toBe(text);
    }
    indexMatchesContent(db);
    expect(searchKeyword(db, { query: 'wooden spoon' }).hits.map((h) => h.skill.name)).toEqual(['huge']);
    expect(searchKeyword(db, { query: '漢字とかな' }).hits.map((h) => h.skill.name)).toEqual(['unicode']);

    // Update, re-import unchanged, trash and undo: the index stays equal to its content, the text packed.
    const edited = skillMd('huge', 'A body close to the 1 MiB limit', huge.replace('wooden', 'copper'));
    writeSkill(root, 'huge', edited);
    const again = await importSource(lib.deps, { path: root }, testJob());
    expect(again.updated.map((s) => s.name)).toEqual(['huge']);
    indexMatchesContent(db);
    expect(searchKeyword(db, { query: 'copper spoon' }).hits.map((h) => h.skill.name)).toEqual(['huge']);
    expect(searchKeyword(db, { query: 'wooden' }).hits).toEqual([]);
    expect((await importSource(lib.deps, { path: root }, testJob())).unchanged).toHaveLength(4);
    const now = new Date().toISOString();
    deleteToTrash(db, { skillIds: [idOf(db, 'huge'), idOf(db, 'tiny')] }, now);
    indexMatchesContent(db);
    undoLastDelete(db, now);
    indexMatchesContent(db);
    expect(storedAs(db, 'huge')).toBe('blob');
    expect(getSkill(db, idOf(db, 'huge')).fullText).toBe(edited);
    expect(getSkill(db, idOf(db, 'tiny')).fullText).toBe(texts.tiny);
    expect(searchKeyword(db, { query: 'copper spoon' }).hits.map((h) => h.skill.name)).toEqual(['huge']);
  });

  it('packs and unpacks in SQL: 8 MB, NUL, empty, unpaired surrogates as TEXT storage has them, a text deflate would grow; refuses an unknown format', () => {
    const db = lib.db;
    const grows = incompressible(90);
    expect(deflateSync(grows).length).toBeGreaterThan(Buffer.byteLength(grows));
    expect(db.prepare('SELECT typeof(pack_text(?))').pluck().get(grows)).toBe('text');
    const roundTrip = (text: string) => db.prepare('SELECT unpack_text(pack_text(?))').pluck().get(text);
    const asText = (text: string) => db.prepare('SELECT CAST(? AS TEXT)').pluck().get(text);
    const big = 'Eight megabytes of a recipe, line after line. 🍲\n'.repeat(170_000);
    for (const text of [
      big,
      `before\u0000after ${'x'.repeat(300)}`,
      '',
      `lone \ud800 and \udc00 ${'y'.repeat(300)}`,
    ])
      expect(roundTrip(text)).toBe(asText(text));
    expect(db.prepare('SELECT typeof(pack_text(?))').pluck().get(big)).toBe('blob');
    expect(db.prepare('SELECT unpack_text(NULL)').pluck().get()).toBeNull();
    expect(() =>
      db
        .prepare('SELECT unpack_text(?)')
        .pluck()
        .get(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])),
    ).toThrow(/format this version of Skill Curator cannot read/);
  });

  it('stores a pending conflict’s incoming skill packed, and gives it back whole', async () => {
    const first = path.join(lib.dir, 'first');
    const second = path.join(lib.dir, 'second');
    const body = 'Use the stove, stirring now and then.\n'.repeat(40);
    writeSkill(first, 'heat-food', skillMd('heat-food', 'Heat food in a microwave.', 'Use the microwave.\n'));
    writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food on a stove.', body));
    await importSource(lib.deps, { path: first }, testJob());
    const report = await importSource(lib.deps, { path: second }, testJob());
    expect(report.conflicts).toHaveLength(1);
    expect(lib.db.prepare('SELECT typeof(incoming) FROM import_conflicts').pluck().get()).toBe('blob');
    const [conflict] = listConflicts(lib.db);
    expect(getConflict(lib.db, conflict!.id).incoming.body).toBe(body);
    expect(conflictDiff(lib.db, conflict!.id).incoming.text).toBe(
      skillMd('heat-food', 'Heat food on a stove.', body),
    );
    // Asked again by a re-import: the same question, not rewritten.
    const again = await importSource(lib.deps, { path: second }, testJob());
    expect(again.conflicts.map((c) => c.id)).toEqual([conflict!.id]);
  });
});

/** The sample tasks as typed queries, and words that hit names, references and prefixes. */
function queries(): string[] {
  const tasks = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
  return [
    ...tasks.map((t) => t.task),
    'microwave',
    'micro',
    'reference temperatures',
    'zanzibarite',
    'stove',
  ];
}

function ranked(db: Db): unknown[] {
  return queries().map((query) => {
    const r = searchKeyword(db, { query, limit: 200 });
    return {
      query,
      total: r.total,
      hits: r.hits.map((h) => ({ id: h.skill.id, score: Number(h.score.toFixed(9)), snippet: h.snippet })),
    };
  });
}

/** What the API gives for every skill and conflict: the texts a user sees. */
function answers(db: Db): unknown {
  const ids = db.prepare('SELECT id FROM skills ORDER BY id').pluck().all() as number[];
  return {
    skills: ids.map((id) => {
      const s = getSkill(db, id);
      return { id, body: s.body, fullText: s.fullText };
    }),
    packages: loadPackages(db, ids).packages.map((p) => p.fullText),
    conflicts: listConflicts(db, {}).map((c) => {
      const diff = conflictDiff(db, c.id);
      return {
        id: c.id,
        body: getConflict(db, c.id).incoming.body,
        existing: diff.existing.text,
        incoming: diff.incoming.text,
      };
    }),
  };
}

describe('conversion of a library written before migration 034', () => {
  it('packs every text in place through a kill -9, with texts, API answers and search unchanged throughout', async () => {
    const file = path.join(dir, 'library.db');
    const extra = path.join(dir, 'extra');
    writeSkill(extra, 'oven-bake', skillMd('oven-bake', 'Bake bread', '# Oven\n\nPreheat.\n'.repeat(30)), {
      'references/b.md': 'Second zanzibarite note.',
    });
    const rival = path.join(dir, 'rival');
    writeSkill(
      rival,
      'oven-bake',
      skillMd('oven-bake', 'Bake on a stove', 'Use the stove lid.\n'.repeat(30)),
    );
    await writeUnpackedLibrary(file, [sampleLibrary, extra], [rival]);

    const oldDb = openUnmigrated(file);
    const before = ranked(oldDb);
    const oldTexts = oldDb.prepare('SELECT id, body, full_text AS fullText FROM skills ORDER BY id').all();
    oldDb.close();
    expect((before as { total: number }[]).filter((r) => r.total > 0).length).toBeGreaterThan(20);

    // Upgraded, nothing packed yet.
    let db = openDb(file);
    expect(conversionState(db)).toMatchObject({ phase: 'packing', doneThrough: 0 });
    expect(
      db.prepare("SELECT COUNT(*) FROM skills WHERE typeof(full_text_stored) = 'blob'").pluck().get(),
    ).toBe(0);
    const expected = answers(db);
    expect((expected as { conflicts: unknown[] }).conflicts).toHaveLength(1);
    expect((expected as { skills: unknown[] }).skills).toEqual(oldTexts);
    expect(ranked(db)).toEqual(before);
    db.close();

    // Killed in the middle: the cursor holds what was committed; packed and plain rows read alike.
    const child = spawnTs(path.join(repoRoot, 'test/fixtures/jobs/convert-child.ts'), [file]);
    await child.waitFor(/batch 6 more/, 60_000);
    child.proc.kill('SIGKILL');
    await child.exited;
    db = openDb(file);
    const midway = conversionState(db)!;
    const maxId = db.prepare('SELECT MAX(id) FROM skills').pluck().get() as number;
    expect(midway.phase).toBe('packing');
    expect(midway.doneThrough).toBeGreaterThanOrEqual(6);
    expect(midway.doneThrough).toBeLessThan(maxId);
    const kinds = db
      .prepare('SELECT DISTINCT typeof(full_text_stored) FROM skills WHERE id > ? ORDER BY 1')
      .pluck()
      .all(midway.doneThrough);
    expect(kinds).toEqual(['text']);
    expect(
      db.prepare("SELECT COUNT(*) FROM skills WHERE typeof(full_text_stored) = 'blob'").pluck().get(),
    ).toBeGreaterThan(0);
    expect(answers(db)).toEqual(expected);
    expect(ranked(db)).toEqual(before);
    indexMatchesContent(db);
    db.close();

    // The job resumes from the cursor and finishes; the file shrinks.
    const core = createCore({ dataDir: dir, dbFile: file, resourcesDir: path.join(repoRoot, 'resources') });
    try {
      const job = resumeLibraryConversion(core.context)!;
      expect(job.kind).toBe('library.convert-text');
      const final = await core['jobs.wait']({ id: job.id });
      expect(final.status).toBe('done');
      const result = final.result as ConversionResult;
      expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
      expect(resumeLibraryConversion(core.context)).toBeNull();
    } finally {
      await core.close();
    }

    db = openDb(file);
    try {
      expect(conversionState(db)).toBeNull();
      expect(
        db
          .prepare(
            "SELECT COUNT(*) FROM skills WHERE typeof(full_text_stored) = 'text' AND length(CAST(full_text_stored AS BLOB)) > 400",
          )
          .pluck()
          .get(),
      ).toBe(0);
      expect(db.prepare('SELECT typeof(incoming) FROM import_conflicts').pluck().get()).toBe('blob');
      expect(answers(db)).toEqual(expected);
      expect(ranked(db)).toEqual(before);
      indexMatchesContent(db);
    } finally {
      db.close();
    }
  });
});
