// The vector index over recall texts: incremental, resumable, stale on a model change, and dense recall by cosine.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../src/shared/jobs';
import { createHashingEmbedder } from '../../src/core/models/lexical/hashing-embedder';
import type { EmbedOptions, Embedder } from '../../src/core/models/ports';
import { denseKnn, denseRecall, exactDenseKnn } from '../../src/core/search/dense';
import { buildVectorIndex, vectorIndexStatus } from '../../src/core/search/vector-index';
import { openTestLibrary, type TestLibrary } from './vector-fixture';

/** The hashing engine, counting what it is asked to embed (a real engine, observed). */
function counted(inner: Embedder, failAfterCalls = Infinity): Embedder & { texts: string[]; calls: number } {
  const self = {
    id: inner.id,
    engine: inner.engine,
    dim: inner.dim,
    texts: [] as string[],
    calls: 0,
    async embed(texts: string[], options: EmbedOptions) {
      if (self.calls >= failAfterCalls) throw new Error('worker crashed');
      self.calls++;
      if (options.role === 'document') self.texts.push(...texts);
      return inner.embed(texts, options);
    },
  };
  return self;
}

const job = (progress: JobProgress[] = [], signal = new AbortController().signal) => ({
  signal,
  report: (p: JobProgress) => progress.push(p),
});

const skills = [
  { name: 'pdf-extract', description: 'Extract text and tables from PDF documents' },
  { name: 'csv-clean', description: 'Clean CSV spreadsheets: fix headers, drop empty rows' },
  { name: 'git-release', description: 'Tag a git release and write the changelog' },
  { name: 'image-resize', description: 'Resize and crop images in bulk' },
  { name: 'sql-report', description: 'Run SQL queries against a database and export a report' },
];

let lib: TestLibrary;
afterEach(() => lib?.close());

describe('buildVectorIndex', () => {
  it('embeds every skill once, then only new or changed ones, and drops removed ones', async () => {
    lib = openTestLibrary();
    const ids = skills.map((s) => lib.add(s));
    const e = counted(createHashingEmbedder({ dim: 64 }));
    const progress: JobProgress[] = [];
    const first = await buildVectorIndex({ db: lib.db, batchSize: 2 }, e, job(progress));
    expect(first).toMatchObject({ embedded: 5, unchanged: 0, removed: 0, cancelled: false, dim: 64 });
    expect(e.texts.sort()).toEqual(skills.map((s) => `${s.name} | ${s.description}`).sort());
    expect(progress.at(-1)).toMatchObject({ done: 5, total: 5 });
    expect(progress.some((p) => typeof p.etaSeconds === 'number')).toBe(true);

    e.texts = [];
    const again = await buildVectorIndex({ db: lib.db }, e, job());
    expect(again).toMatchObject({ embedded: 0, unchanged: 5 });
    expect(e.texts).toEqual([]);

    lib.update(ids[1]!, { description: 'Clean and validate CSV files' });
    lib.update(ids[2]!, { body: 'A new body does not change the recall text' });
    const added = lib.add({ name: 'mail-send', description: 'Send an email with attachments' });
    lib.remove(ids[3]!);
    e.texts = [];
    const third = await buildVectorIndex({ db: lib.db }, e, job());
    expect(e.texts.sort()).toEqual([
      'csv-clean | Clean and validate CSV files',
      'mail-send | Send an email with attachments',
    ]);
    expect(third).toMatchObject({ embedded: 2, unchanged: 3, removed: 1 });
    const stored = lib.db.prepare('SELECT skill_id FROM skill_vectors ORDER BY skill_id').pluck().all();
    expect(stored).toEqual([ids[0], ids[1], ids[2], ids[4], added]);
    expect(lib.db.prepare('SELECT count(*) FROM skill_vec_bits_64').pluck().get()).toBe(5);
    expect(vectorIndexStatus(lib.db, e)).toMatchObject({
      skills: 5,
      indexed: 5,
      pending: 0,
      stale: false,
      building: false,
    });
  });

  it('resumes after a crash mid-way without re-embedding finished batches', async () => {
    lib = openTestLibrary();
    for (const s of skills) lib.add(s);
    const crashing = counted(createHashingEmbedder({ dim: 64 }), 2);
    await expect(buildVectorIndex({ db: lib.db, batchSize: 2 }, crashing, job())).rejects.toThrow(
      'worker crashed',
    );
    const mid = vectorIndexStatus(lib.db, crashing);
    expect(mid).toMatchObject({ indexed: 4, pending: 1, building: true });

    const e = counted(createHashingEmbedder({ dim: 64 }));
    const resumed = await buildVectorIndex({ db: lib.db, batchSize: 2 }, e, job());
    expect(resumed).toMatchObject({ embedded: 1, unchanged: 4 });
    expect(e.texts).toHaveLength(1);
    expect(vectorIndexStatus(lib.db, e)).toMatchObject({ indexed: 5, pending: 0, building: false });
  });

  it('stops at a batch boundary when cancelled and keeps what it made', async () => {
    lib = openTestLibrary();
    for (const s of skills) lib.add(s);
    const ac = new AbortController();
    const e = counted(createHashingEmbedder({ dim: 64 }));
    const report = await buildVectorIndex({ db: lib.db, batchSize: 2 }, e, {
      signal: ac.signal,
      report: (p) => {
        if (p.done === 2) ac.abort();
      },
    });
    expect(report).toMatchObject({ embedded: 2, cancelled: true });
    expect(vectorIndexStatus(lib.db)).toMatchObject({ indexed: 2, pending: 3 });
  });

  it('says the index is stale when the engine changes, and a rebuild replaces every vector', async () => {
    lib = openTestLibrary();
    for (const s of skills) lib.add(s);
    const small = createHashingEmbedder({ dim: 64 });
    await buildVectorIndex({ db: lib.db, dtype: 'fp32' }, small, job());
    const big = counted(createHashingEmbedder({ dim: 128 }));
    expect(vectorIndexStatus(lib.db, big)).toMatchObject({ stale: true, modelId: 'lexical:hashing-64' });
    expect(vectorIndexStatus(lib.db, { id: small.id, dtype: 'q8' }).stale).toBe(true);
    expect(vectorIndexStatus(lib.db, { id: small.id, dtype: 'fp32' }).stale).toBe(false);
    await expect(denseRecall(lib.db, big, 'pdf tables', 3)).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    const rebuilt = await buildVectorIndex({ db: lib.db }, big, job());
    expect(rebuilt).toMatchObject({ embedded: 5, removed: 0 });
    expect(vectorIndexStatus(lib.db, big)).toMatchObject({ stale: false, dim: 128, indexed: 5 });
    expect(
      lib.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'skill_vec_bits_64'").pluck().get(),
    ).toBe(0);
  });
});

describe('dense recall', () => {
  it('returns the nearest skills by cosine, best first', async () => {
    lib = openTestLibrary();
    const ids = skills.map((s) => lib.add(s));
    const e = createHashingEmbedder({ dim: 64 });
    await buildVectorIndex({ db: lib.db }, e, job());
    const hits = await denseRecall(lib.db, e, 'extract the tables of a PDF', 2);
    expect(hits[0]?.skillId).toBe(ids[0]);
    expect(hits[0]!.cosine).toBeGreaterThan(hits[1]!.cosine);
    const [q] = await e.embed(['extract the tables of a PDF'], { role: 'query' });
    expect(hits).toEqual(
      exactDenseKnn(lib.db, e.id, q!, 2).map((h) => ({
        skillId: h.skillId,
        cosine: expect.closeTo(h.cosine, 5),
      })),
    );
  });

  it('the coarse pass with a short shortlist finds most of the exact top 10 on a larger library', async () => {
    lib = openTestLibrary();
    const words =
      'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(
        ' ',
      );
    let seed = 7;
    const pick = () => words[((seed = (seed * 1103515245 + 12345) % 2147483648) >>> 16) % words.length]!;
    for (let i = 0; i < 600; i++)
      lib.add({ name: `s${i}`, description: Array.from({ length: 6 }, pick).join(' ') });
    const e = createHashingEmbedder({ dim: 256 });
    await buildVectorIndex({ db: lib.db }, e, job());
    let overlap = 0;
    for (let t = 0; t < 10; t++) {
      const [q] = await e.embed([Array.from({ length: 4 }, pick).join(' ')], { role: 'query' });
      const exact = new Set(exactDenseKnn(lib.db, e.id, q!, 10).map((h) => h.skillId));
      overlap += denseKnn(lib.db, e.id, q!, 10, {}, 100).filter((h) => exact.has(h.skillId)).length;
    }
    expect(overlap / 100).toBeGreaterThanOrEqual(0.9);
  });

  it('sees skills indexed after the first query (the in-memory coarse pass reloads on change)', async () => {
    lib = openTestLibrary();
    for (const s of skills) lib.add(s);
    const e = createHashingEmbedder({ dim: 64 });
    await buildVectorIndex({ db: lib.db }, e, job());
    expect((await denseRecall(lib.db, e, 'send an email', 1))[0]?.skillId).not.toBeUndefined();
    const mail = lib.add({ name: 'mail-send', description: 'Send an email with attachments' });
    await buildVectorIndex({ db: lib.db }, e, job());
    expect((await denseRecall(lib.db, e, 'send an email', 1))[0]?.skillId).toBe(mail);
  });

  it('keeps to the filter when the coarse pass shortlists only part of the library', async () => {
    lib = openTestLibrary();
    const other = lib.addSource('other');
    const inOther = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const id = lib.add(
        { name: `s${i}`, description: `tool number ${i} for ${i % 2 ? 'pdf files' : 'csv files'}` },
        i % 10 === 0 ? other : lib.sourceId,
      );
      if (i % 10 === 0) inOther.add(id);
    }
    const e = createHashingEmbedder({ dim: 128 });
    await buildVectorIndex({ db: lib.db }, e, job());
    const [q] = await e.embed(['pdf files'], { role: 'query' });
    const hits = denseKnn(lib.db, e.id, q!, 10, { sourceId: other }, 20);
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => inOther.has(h.skillId))).toBe(true);
  });
});
