// The text index of a batch of imported skills is written once per batch: FTS5 writes its pending index out as a new
// segment at every statement savepoint, so indexing each skill between the batch's inserts made one segment per skill.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchKeyword } from '../../src/core/search/keyword';
import type { Loaded } from '../../src/core/skills/import-batches';
import { writeBatch } from '../../src/core/skills/import-writes';
import { ImportReportWriter } from '../../src/core/skills/import-report';
import { lineToSkill } from '../../src/core/skills/sources/jsonl-skill';
import type { SkillCandidate } from '../../src/core/skills/sources/source';
import { defaultImportSettings } from '../../src/core/skills/types';
import type { Db } from '../../src/core/store/db';
import { upsertSource } from '../../src/core/store/sources-repo';
import { inflatedTexts } from '../../src/core/store/text-packing';
import { tempLibrary, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

/** Segments in the FTS5 structure record (id 10 of skills_fts_data): a cookie, an optional v2 mark, levels, segments. */
function segmentCount(db: Db): number {
  const block = db.prepare('SELECT block FROM skills_fts_data WHERE id = 10').pluck().get() as Buffer;
  let at = 4;
  if (block.readUInt32BE(4) === 0xff000001) at += 4;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = block[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  varint(); // levels
  return varint();
}

function loaded(
  name: string,
  line: number,
  files?: { path: string; content: string }[],
  body = `Steps for ${name}: use the toaster.`,
): Loaded {
  const result = lineToSkill(
    {
      name,
      description: `How to ${name.replace(/-/g, ' ')}.`,
      body,
      files,
    },
    name,
    'dump.jsonl',
    line,
    defaultImportSettings,
  );
  const item: SkillCandidate = {
    type: 'candidate',
    relPath: name,
    file: `dump.jsonl:${line}`,
    load: async () => result,
  };
  return { item, result };
}

const reportOf = (sourceId: number) =>
  new ImportReportWriter(lib.db, {
    sourceId,
    sourceUri: '/dump.jsonl',
    kind: 'jsonl',
    jobId: null,
    now: 'now',
  });

describe('text index of an imported batch', () => {
  it('a batch of 30 skills adds one index segment, and every skill is found', () => {
    lib.db.exec(`INSERT INTO skills_fts (skills_fts, rank) VALUES ('automerge', 0)`);
    const source = upsertSource(lib.db, 'jsonl', '/dump.jsonl', null, 'dump', 'now');
    const batch = Array.from({ length: 30 }, (_, i) =>
      loaded(
        `skill-${i}`,
        i + 1,
        i % 3 === 0 ? [{ path: 'references/notes.md', content: `kettle ${i}` }] : undefined,
      ),
    );
    const report = reportOf(source.id);
    writeBatch(lib.deps, source.id, batch, 'record', report);
    expect(report.count('added')).toBe(30);
    expect(segmentCount(lib.db)).toBe(1);
    expect(lib.db.prepare('SELECT count(*) FROM skills WHERE index_paused != 0').pluck().get()).toBe(0);
    lib.db.exec(`INSERT INTO skills_fts (skills_fts) VALUES ('integrity-check')`);
    expect(searchKeyword(lib.db, { query: 'toaster', limit: 100 }).total).toBe(30);
    expect(searchKeyword(lib.db, { query: 'kettle', limit: 100 }).total).toBe(10);
  });

  it('a batch that updates and replaces skills leaves the index equal to the rows', () => {
    const source = upsertSource(lib.db, 'jsonl', '/dump.jsonl', null, 'dump', 'now');
    writeBatch(
      lib.deps,
      source.id,
      [loaded('boil-water', 1), loaded('make-tea', 2)],
      'record',
      reportOf(source.id),
    );
    const changed = loaded('boil-water', 1);
    if (changed.result?.ok !== true) throw new Error('test line rejected');
    changed.result.skill.body = 'Use the kettle instead.';
    changed.result.skill.fullText = changed.result.skill.fullText.replace(
      /Steps[^]*$/,
      'Use the kettle instead.',
    );
    changed.result.skill.contentHash = 'changed';
    const report = reportOf(source.id);
    writeBatch(lib.deps, source.id, [changed, loaded('pour-tea', 3)], 'record', report);
    expect(report.report.updated.map((u) => u.name)).toEqual(['boil-water']);
    lib.db.exec(`INSERT INTO skills_fts (skills_fts) VALUES ('integrity-check')`);
    expect(searchKeyword(lib.db, { query: 'kettle', limit: 10 }).hits.map((h) => h.skill.name)).toEqual([
      'boil-water',
    ]);
    expect(searchKeyword(lib.db, { query: 'toaster', limit: 10 }).total).toBe(2);
  });

  it('indexes a batch from the texts it packed (none inflated again), as reading them back would', () => {
    const source = upsertSource(lib.db, 'jsonl', '/dump.jsonl', null, 'dump', 'now');
    const words = ['toaster', 'kettle', 'whisk', 'ladle', 'grater', 'sieve'];
    // Long enough to be stored packed; the words repeat differently in each, so BM25 ranks them apart.
    const batch = Array.from({ length: 40 }, (_, i) =>
      loaded(
        `utensil-${i}`,
        i + 1,
        i % 4 === 0 ? [{ path: 'references/more.md', content: `${words[i % 6]} notes` }] : undefined,
        words.map((w, j) => `Use the ${w}. `.repeat(1 + ((i * (j + 3)) % 7))).join('\n') +
          `\u00e9t\u00e9 \u{1F373} \u0002marked\u0003 text ${i}.`,
      ),
    );
    const before = inflatedTexts();
    writeBatch(lib.deps, source.id, batch, 'record', reportOf(source.id));
    expect(inflatedTexts()).toBe(before);
    expect(
      lib.db.prepare("SELECT count(*) FROM skills WHERE typeof(full_text_stored) = 'blob'").pluck().get(),
    ).toBe(40);
    // rank = 1: FTS5 compares the index with its content, read back through the view (inflating each text).
    lib.db.exec(`INSERT INTO skills_fts (skills_fts, rank) VALUES ('integrity-check', 1)`);
    const ranked = () =>
      words.map((w) => searchKeyword(lib.db, { query: w, limit: 100 }).hits.map((h) => h.skill.name));
    const fromBatch = ranked();
    expect(fromBatch[0]).toHaveLength(40);
    lib.db.exec(`INSERT INTO skills_fts (skills_fts) VALUES ('rebuild')`);
    expect(inflatedTexts()).toBeGreaterThan(before);
    expect(ranked()).toEqual(fromBatch);
  });
});
