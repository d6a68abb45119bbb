// A large JSONL dump builds its skills in a worker thread while the importer writes: the same library and report as
// building them on the importer's thread, an error in one line rejects that skill only, and a cancelled import leaves
// a consistent library that the next import completes.
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource } from '../../src/core/skills/index';
import { openJsonlSource } from '../../src/core/skills/sources/jsonl';
import { WorkerLineLoader } from '../../src/core/skills/sources/jsonl-loader';
import { defaultImportSettings, type ImportJob, type ImportReport } from '../../src/core/skills/types';
import type { Db } from '../../src/core/store/db';
import { deflatedTexts } from '../../src/core/store/text-packing';
import { tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let other: TempLibrary;
let dump: string;
beforeEach(() => {
  lib = tempLibrary();
  other = tempLibrary();
  dump = path.join(lib.dir, 'dump.jsonl');
  writeFileSync(dump, lines().join('\n') + '\n');
});
afterEach(() => {
  lib.close();
  other.close();
});

const inWorker = { jsonlWorkerFromBytes: 0 };
const onThisThread = { jsonlWorkerFromBytes: Number.MAX_SAFE_INTEGER };

/** 60 skills: plain ones, one with warnings, one with a reference file, a rejected line and a line that is not JSON. */
function lines(): string[] {
  const out = Array.from({ length: 60 }, (_, i) =>
    JSON.stringify({
      name: `skill-${String(i).padStart(2, '0')}`,
      description: `How to do task ${i}: with a description long enough that YAML folds it over two lines, or more.`,
      body: `# Task ${i}\n\nSteps for task ${i}.\n`,
    }),
  );
  out[7] = JSON.stringify({ name: 'warned', description: 'Has an unknown key.', body: 'x', colour: 'blue' });
  out[8] = JSON.stringify({
    name: 'with-notes',
    description: 'Has notes.',
    body: 'See the notes.',
    files: [{ path: 'references/notes.md', content: 'kettle notes' }],
  });
  out[9] = JSON.stringify({ name: 'no-description', body: 'x' });
  out[10] = '{"name": "broken"';
  return out;
}

function rows(db: Db): unknown[] {
  return db
    .prepare(
      `SELECT name, description, front_matter, body, full_text, rel_path, content_hash, warnings, source_digest,
         (SELECT group_concat(path || ':' || coalesce(text_content, '')) FROM skill_files f WHERE f.skill_id = s.id) AS files
       FROM skills s ORDER BY rel_path`,
    )
    .all();
}

const withoutSource = ({ sourceId: _, sourceUri: __, ...rest }: ImportReport) => rest;

/** Every skill is in the text index and none is left paused out of it. */
function indexConsistent(db: Db): void {
  db.exec(`INSERT INTO skills_fts (skills_fts) VALUES ('integrity-check')`);
  expect(db.prepare('SELECT count(*) FROM skills WHERE index_paused != 0').pluck().get()).toBe(0);
  expect(db.prepare('SELECT count(*) FROM skills_fts').pluck().get()).toBe(
    db.prepare('SELECT count(*) FROM skills').pluck().get(),
  );
}

function hooked(hook: (done: number) => void, controller = new AbortController()): ImportJob {
  return { signal: controller.signal, report: (p) => hook(p.done) };
}

describe('JSONL import in a worker thread', () => {
  it('a dump over the size opens with a worker; a small one does not', async () => {
    const signal = new AbortController().signal;
    const big = await openJsonlSource(dump, defaultImportSettings, signal, { workerFromBytes: 0 });
    const small = await openJsonlSource(dump, defaultImportSettings, signal);
    expect([big.workerLoads !== undefined, small.workerLoads]).toEqual([true, undefined]);
    await Promise.all([big.close(), small.close()]);
  });

  it('a worker that cannot start leaves the lines to this thread', async () => {
    // Settings that cannot be sent to a thread (a function) make the worker fail to start.
    const unsendable = { ...defaultImportSettings, extra: () => 0 };
    const here: string[] = [];
    const loader = new WorkerLineLoader({ fd: 0, base: 'dump.jsonl', limits: unsendable }, async (at) => {
      here.push(at.relPath);
      return { ok: false, issues: [] };
    });
    await loader.load({ relPath: 'skill-00', line: 1, offset: 0, length: 10 });
    expect(here).toEqual(['skill-00']);
    expect(loader.threaded).toBe(false);
    await loader.close();
  });

  it('gives the same skills and report as loading on the importer thread', async () => {
    const threaded = await importSource(lib.deps, { path: dump }, testJob(), inWorker);
    const here = await importSource(other.deps, { path: dump }, testJob(), onThisThread);
    expect(threaded.added).toHaveLength(58);
    expect(threaded.rejected.map((r) => r.issues[0]!.rule)).toEqual(['description-required', 'jsonl-syntax']);
    expect(withoutSource(threaded)).toEqual(withoutSource(here));
    expect(rows(lib.db)).toEqual(rows(other.db));
    indexConsistent(lib.db);
  });

  it('a line that changes while it is imported rejects that skill only', async () => {
    const text = readFileSync(dump, 'utf8');
    const at = text.split('\n').slice(0, 40).join('\n').length + 1; // line 41 (skill-40), loaded well after the first batch
    const report = await importSource(
      lib.deps,
      { path: dump },
      hooked((done) => {
        if (done !== 1) return;
        const fd = openSync(dump, 'r+');
        writeSync(fd, 'x', at); // same length, no longer JSON
        closeSync(fd);
      }),
      inWorker,
    );
    const unreadable = report.rejected.filter((r) => r.issues[0]!.rule === 'unreadable');
    expect(unreadable.map((r) => [r.relPath, r.issues[0]!.message])).toEqual([
      ['skill-40', 'cannot read the package: line 41 changed while it was imported'],
    ]);
    expect(report.added).toHaveLength(57);
    indexConsistent(lib.db);
  });

  it('cancelled mid-import, the library is consistent and the next import completes it', async () => {
    const controller = new AbortController();
    const cancelled = await importSource(
      lib.deps,
      { path: dump },
      hooked((done) => {
        if (done === 3) controller.abort();
      }, controller),
      inWorker,
    );
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.added.length).toBeGreaterThan(0);
    expect(cancelled.added.length).toBeLessThan(58);
    indexConsistent(lib.db);
    const again = await importSource(lib.deps, { path: dump }, testJob(), inWorker);
    expect(again.cancelled).toBe(false);
    expect(again.added.length + again.unchanged.length).toBe(58);
    await importSource(other.deps, { path: dump }, testJob(), onThisThread);
    const comparable = (db: Db) => rows(db);
    expect(comparable(lib.db)).toEqual(comparable(other.db));
    indexConsistent(lib.db);
  });

  it('packs each text in the worker: the importer’s thread deflates none, and stores the same bytes', async () => {
    const long = (i: number) =>
      JSON.stringify({
        name: `long-${i}`,
        description: `A skill with a body long enough to be stored packed (${i}).`,
        body: `# Long ${i}\n\n${'Stir, taste, stir again. '.repeat(20 + i)}\n`,
      });
    writeFileSync(dump, Array.from({ length: 30 }, (_, i) => long(i)).join('\n') + '\n');
    const before = deflatedTexts();
    const threaded = await importSource(lib.deps, { path: dump }, testJob(), inWorker);
    expect(threaded.added).toHaveLength(30);
    expect(deflatedTexts()).toBe(before);
    await importSource(other.deps, { path: dump }, testJob(), onThisThread);
    expect(deflatedTexts()).toBe(before + 30);
    const stored = (db: Db) =>
      db.prepare('SELECT rel_path, full_text_stored FROM skills ORDER BY rel_path').all();
    expect(
      lib.db.prepare("SELECT count(*) FROM skills WHERE typeof(full_text_stored) = 'blob'").pluck().get(),
    ).toBe(30);
    expect(stored(lib.db)).toEqual(stored(other.db));
    expect(rows(lib.db)).toEqual(rows(other.db));
    indexConsistent(lib.db);
  });
});
