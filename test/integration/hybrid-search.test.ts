// Search modes over a real library file: keyword, dense (vector or lexical), and hybrid by reciprocal-rank fusion.
import { afterEach, describe, expect, it } from 'vitest';
import { createHashingEmbedder } from '../../src/core/models/lexical/hashing-embedder';
import { fuseRanks, rrfK, searchSkills } from '../../src/core/search/hybrid';
import { recallSkills } from '../../src/core/search/recall';
import { buildVectorIndex } from '../../src/core/search/vector-index';
import { openTestLibrary, type TestLibrary } from './vector-fixture';

const job = { signal: new AbortController().signal, report: () => {} };
let lib: TestLibrary;
afterEach(() => lib?.close());

function library(): { ids: Record<string, number> } {
  lib = openTestLibrary();
  const ids: Record<string, number> = {};
  const add = (name: string, description: string, body?: string) =>
    (ids[name] = lib.add({ name, description, body }));
  add('pdf-extract', 'Extract text and tables from PDF documents');
  add('pdf-merge', 'Merge several PDF files into one document');
  add('table-ocr', 'Read tables from scanned images with OCR', 'Works on PDF scans too.');
  add('csv-clean', 'Clean CSV spreadsheets and fix their headers');
  add('git-release', 'Tag a git release and write the changelog');
  return { ids };
}

describe('reciprocal-rank fusion', () => {
  it('adds 1/(60 + rank) over the lists, as computed by hand', () => {
    // keyword: A B C; dense: C A D.  A = 1/61 + 1/62 = .032522, C = 1/63 + 1/61 = .032266, B = 1/62, D = 1/63.
    const fused = fuseRanks({
      keyword: [{ skillId: 1 }, { skillId: 2 }, { skillId: 3 }],
      dense: [{ skillId: 3 }, { skillId: 1 }, { skillId: 4 }],
    });
    expect(rrfK).toBe(60);
    expect(fused.map((f) => f.skillId)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]).toMatchObject({ skillId: 3, ranks: { keyword: 3, dense: 1 } });
    expect(fused[3]).toMatchObject({ skillId: 4, score: 1 / 63, ranks: { dense: 3 } });
  });

  it('breaks a tie by the better best rank, then the smaller id', () => {
    const fused = fuseRanks({
      keyword: [{ skillId: 9 }, { skillId: 5 }],
      dense: [{ skillId: 5 }, { skillId: 9 }],
    });
    expect(fused.map((f) => f.skillId)).toEqual([5, 9]);
  });
});

describe('searchSkills', () => {
  it('hybrid fuses the keyword and dense lists the other two modes return', async () => {
    library();
    const embedder = createHashingEmbedder({ dim: 128 });
    await buildVectorIndex({ db: lib.db }, embedder, job);
    const deps = { db: lib.db, embedder };
    const query = 'pdf tables';
    const keyword = await searchSkills(deps, { query, mode: 'keyword', limit: 50 });
    const dense = await searchSkills(deps, { query, mode: 'dense', limit: 50 });
    const hybrid = await searchSkills(deps, { query, mode: 'hybrid', limit: 50 });
    expect(keyword.engine).toBe('keyword:fts5-bm25');
    expect(dense.engine).toBe('lexical:hashing-128');
    expect(hybrid.engine).toBe('rrf(keyword:fts5-bm25 + lexical:hashing-128)');
    const kRank = new Map(keyword.hits.map((h, i) => [h.skill.id, i + 1]));
    const dRank = new Map(dense.hits.map((h, i) => [h.skill.id, i + 1]));
    for (const h of hybrid.hits) {
      const k = kRank.get(h.skill.id);
      const d = dRank.get(h.skill.id);
      expect(h.ranks).toEqual({ ...(k ? { keyword: k } : {}), ...(d ? { dense: d } : {}) });
      expect(h.score).toBeCloseTo((k ? 1 / (60 + k) : 0) + (d ? 1 / (60 + d) : 0), 12);
    }
    const scores = hybrid.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Skills both lists found come before those only one found.
    expect(hybrid.hits[0]!.ranks.keyword && hybrid.hits[0]!.ranks.dense).toBeTruthy();
    expect(hybrid.hits.at(-1)!.ranks.keyword && hybrid.hits.at(-1)!.ranks.dense).toBeFalsy();
    expect(hybrid.hits[0]!.snippet).toContain('\u0002');
  });

  it('without a vector engine, dense search is BM25 over name and description, labelled lexical', async () => {
    const { ids } = library();
    const res = await searchSkills({ db: lib.db }, { query: 'scanned PDF', mode: 'dense' });
    expect(res.engine).toBe('lexical:bm25');
    // table-ocr mentions PDF only in its body, which the recall text leaves out; its description still says "scanned".
    expect(
      res.hits
        .map((h) => h.skill.id)
        .slice(0, 3)
        .sort(),
    ).toEqual([ids['pdf-extract'], ids['pdf-merge'], ids['table-ocr']].sort());
    expect(res.hits.every((h) => h.ranks.dense !== undefined && h.ranks.keyword === undefined)).toBe(true);
  });

  it('applies the same filters in every mode: source, review status (with or without a state row), warnings', async () => {
    const { ids } = library();
    const other = lib.addSource('second');
    const remote = lib.add(
      {
        name: 'pdf-sign',
        description: 'Sign PDF documents',
        warnings: [{ severity: 'warning', rule: 'x', message: 'm', file: 'SKILL.md' }],
      },
      other,
    );
    const embedder = createHashingEmbedder({ dim: 128 });
    await buildVectorIndex({ db: lib.db }, embedder, job);
    lib.db
      .prepare(
        "INSERT INTO skill_states (skill_id, precondition, completion, status, created_at, updated_at) VALUES (?, NULL, 'done', 'parsed', 'now', 'now')",
      )
      .run(ids['pdf-merge']);
    const deps = { db: lib.db, embedder };
    for (const mode of ['keyword', 'dense', 'hybrid'] as const) {
      const bySource = await searchSkills(deps, { query: 'pdf', mode, filters: { sourceId: other } });
      expect(bySource.hits.map((h) => h.skill.id)).toEqual([remote]);
      const parsed = await searchSkills(deps, { query: 'pdf', mode, filters: { status: 'parsed' } });
      expect(parsed.hits.map((h) => h.skill.id)).toEqual([ids['pdf-merge']]);
      const unparsed = await searchSkills(deps, {
        query: 'pdf documents',
        mode,
        filters: { status: 'unparsed' },
      });
      expect(unparsed.hits.map((h) => h.skill.id)).not.toContain(ids['pdf-merge']);
      expect(unparsed.hits.map((h) => h.skill.id)).toContain(ids['pdf-extract']);
      const warned = await searchSkills(deps, { query: 'pdf', mode, filters: { hasWarnings: true } });
      expect(warned.hits.map((h) => h.skill.id)).toEqual([remote]);
    }
  });

  it('tells the user when the vector index was made by another engine', async () => {
    library();
    await buildVectorIndex({ db: lib.db }, createHashingEmbedder({ dim: 64 }), job);
    const other = createHashingEmbedder({ dim: 128 });
    await expect(
      searchSkills({ db: lib.db, embedder: other }, { query: 'pdf', mode: 'dense' }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('recallSkills', () => {
  it('recalls by cosine with a vector engine and by BM25 without, naming the engine', async () => {
    const { ids } = library();
    const embedder = createHashingEmbedder({ dim: 128 });
    await buildVectorIndex({ db: lib.db }, embedder, job);
    const dense = await recallSkills({ db: lib.db, embedder }, 'merge pdf files', 2);
    expect(dense.engine).toBe(embedder.id);
    expect(dense.candidates[0]).toMatchObject({ skillId: ids['pdf-merge'], cosine: expect.any(Number) });
    const lexical = await recallSkills({ db: lib.db }, 'merge pdf files', 2);
    expect(lexical.engine).toBe('lexical:bm25');
    expect(lexical.candidates[0]?.skillId).toBe(ids['pdf-merge']);
    expect(lexical.candidates[0]?.cosine).toBeUndefined();
  });
});

describe('search notices', () => {
  it('says so when the index build did not finish, and not once it did', async () => {
    library();
    const e = createHashingEmbedder({ dim: 64 });
    const ac = new AbortController();
    await buildVectorIndex({ db: lib.db, batchSize: 2 }, e, {
      signal: ac.signal,
      report: (p) => p.done === 2 && ac.abort(),
    });
    const partial = await searchSkills({ db: lib.db, embedder: e }, { query: 'pdf', mode: 'dense' });
    expect(partial.notice).toMatch(/not finished/);
    await buildVectorIndex({ db: lib.db }, e, job);
    const full = await searchSkills({ db: lib.db, embedder: e }, { query: 'pdf', mode: 'hybrid' });
    expect(full.notice).toBeUndefined();
  });
});
