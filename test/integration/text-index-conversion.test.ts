// Migrations 005/006 on a library the previous schema wrote (the sample library, plus skills with references and the
// snippet marks in their text): search answers as before at every step, the conversion job survives a kill -9 and
// resumes from its cursor, writes made while it runs land in both indexes, and at the end the ranked keyword results
// (ids, order, BM25 scores, snippets) and the index vocabulary equal the old library's, with the space given back.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { resumeLibraryConversion } from '../../src/core/api/library-conversion';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import { searchKeyword } from '../../src/core/search/keyword';
import { importSource } from '../../src/core/skills/importer';
import { deleteToTrash, undoLastDelete } from '../../src/core/sources/trash';
import { openDb, type Db } from '../../src/core/store/db';
import { conversionState } from '../../src/core/store/text-index-conversion';
import type { ConversionResult } from '../../src/core/store/text-index-conversion';
import { spawnTs } from '../fixtures/jobs/child-process';
import { openUnmigrated, writeOldLibrary } from '../fixtures/skills/old-text-library';
import { repoRoot, skillMd, testJob, writeSkill } from '../fixtures/skills/library-fixture';

const sampleLibrary = path.join(repoRoot, 'resources/sample-library');
let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'sc-convert-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The sample tasks as typed queries, and words that hit names, references and prefixes. */
function queries(): string[] {
  const tasks = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
  return [
    ...tasks.map((t) => t.task),
    'microwave',
    'micro',
    'colour mixing',
    'reference temperatures',
    'wombatfish',
    'zanzibarite',
    'git commit',
  ];
}

function ranked(db: Db): unknown[] {
  return queries().map((query) => {
    const r = searchKeyword(db, { query, limit: 200 });
    return {
      query,
      total: r.total,
      matched: r.matched,
      hits: r.hits.map((h) => ({ id: h.skill.id, score: Number(h.score.toFixed(9)), snippet: h.snippet })),
    };
  });
}

const vocabulary = (db: Db) => db.prepare('SELECT term, doc, cnt FROM skills_fts_vocab ORDER BY term').all();

function extraSkills(root: string): void {
  writeSkill(root, 'oven-bake', skillMd('oven-bake', 'Bake bread', '# Oven\n\nPreheat.\n'), {
    'references/b.md': 'Second zanzibarite note.',
    'references/a.md': 'First note on \u0002marked\u0003 heat.',
  });
  writeSkill(
    root,
    'marks',
    skillMd('marks', 'Text with \u0002marks\u0003', 'Body \u0002 wombatfish \u0003.\n'),
  );
}

describe('conversion of an old library (migrations 005/006)', () => {
  it('converts in place through a kill -9, with search unchanged throughout and the space given back', async () => {
    const file = path.join(dir, 'library.db');
    const extra = path.join(dir, 'extra');
    extraSkills(extra);
    await writeOldLibrary(file, [sampleLibrary, extra]);
    const oldDb = openUnmigrated(file);
    const before = ranked(oldDb);
    const oldVocabulary = vocabulary(oldDb);
    oldDb.close();
    expect((before as { total: number }[]).filter((r) => r.total > 0).length).toBeGreaterThan(30);

    // Upgraded, nothing converted yet: the old index still answers.
    let db = openDb(file);
    expect(conversionState(db)).toMatchObject({ phase: 'indexing', doneThrough: 0 });
    expect(ranked(db)).toEqual(before);
    db.close();

    // Killed in the middle of the conversion: the cursor holds what was committed.
    const child = spawnTs(path.join(repoRoot, 'test/fixtures/jobs/convert-child.ts'), [file]);
    await child.waitFor(/batch 6 more/, 60_000);
    child.proc.kill('SIGKILL');
    await child.exited;
    db = openDb(file);
    const midway = conversionState(db)!;
    const maxId = db.prepare('SELECT MAX(id) FROM skills').pluck().get() as number;
    expect(midway.phase).toBe('indexing');
    expect(midway.doneThrough).toBeGreaterThanOrEqual(6);
    expect(midway.doneThrough).toBeLessThan(maxId);
    expect(ranked(db)).toEqual(before);
    db.prepare("INSERT INTO skills_fts (skills_fts) VALUES ('integrity-check')").run();

    // Writes while converting: a skill on each side of the cursor goes to the trash and comes back; one is added.
    const t = '2026-02-01T00:00:00.000Z';
    const converted = db
      .prepare('SELECT id FROM skills WHERE id <= ? ORDER BY id LIMIT 1')
      .pluck()
      .get(midway.doneThrough);
    const pending = db.prepare("SELECT id FROM skills WHERE name = 'oven-bake'").pluck().get() as number;
    expect(pending).toBeGreaterThan(midway.doneThrough);
    deleteToTrash(db, { skillIds: [converted as number, pending] }, t);
    undoLastDelete(db, t);
    expect(ranked(db)).toEqual(before);
    const late = path.join(dir, 'late');
    writeSkill(late, 'late-skill', skillMd('late-skill', 'Added while converting', 'Holds quagganite.\n'));
    const deps = { db, clock: () => new Date(t), logger: { info: () => {}, warn: () => {} } };
    await importSource(deps, { path: late }, testJob());
    expect(searchKeyword(db, { query: 'quagganite' }).hits.map((h) => h.skill.name)).toEqual(['late-skill']);
    db.close();
    const sizeBefore = statSync(file).size;

    // The job resumes from the cursor and finishes.
    const core = createCore({ dataDir: dir, dbFile: file, resourcesDir: path.join(repoRoot, 'resources') });
    try {
      const job = resumeLibraryConversion(core.context)!;
      expect(job.kind).toBe('library.convert-text');
      const final = await core['jobs.wait']({ id: job.id });
      expect(final.status).toBe('done');
      const result = final.result as ConversionResult;
      expect(result.reclaimedBytes).toBeGreaterThan(0);
      expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
      expect(resumeLibraryConversion(core.context)).toBeNull();
    } finally {
      await core.close();
    }
    expect(statSync(file).size).toBeLessThan(sizeBefore);

    db = openDb(file);
    try {
      expect(conversionState(db)).toBeNull();
      db.prepare("INSERT INTO skills_fts (skills_fts, rank) VALUES ('integrity-check', 1)").run();
      expect(
        db
          .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'skills_fts%' ORDER BY name")
          .pluck()
          .all(),
      ).toEqual([
        'skills_fts',
        'skills_fts_config',
        'skills_fts_data',
        'skills_fts_docsize',
        'skills_fts_idx',
        'skills_fts_source',
        'skills_fts_vocab',
      ]);
      expect(db.prepare("SELECT COUNT(*) FROM skills WHERE body_own != ''").pluck().get()).toBe(0);
      expect(searchKeyword(db, { query: 'quagganite' }).hits.map((h) => h.skill.name)).toEqual([
        'late-skill',
      ]);
      db.prepare("DELETE FROM skills WHERE name = 'late-skill'").run();
      expect(ranked(db)).toEqual(before);
      expect(vocabulary(db)).toEqual(oldVocabulary);
      db.prepare("INSERT INTO skills_fts (skills_fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      db.close();
    }
  });
});
