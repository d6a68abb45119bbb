// The score cache: a pair scored once under a model and instruction version is read back, not scored again.
import { afterEach, describe, expect, it } from 'vitest';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import type { CrossEncoder, ScorePair } from '../../src/core/models/ports';
import { createCachedCrossEncoder } from '../../src/core/models/score-cache';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

/** The lexical engine under another id, counting the pairs it really scores. */
function counted(inner: CrossEncoder, id = inner.id): CrossEncoder & { scored: ScorePair[] } {
  const scored: ScorePair[] = [];
  return {
    id,
    engine: inner.engine,
    scored,
    score: async (pairs, o) => (scored.push(...pairs), inner.score(pairs, o)),
  };
}

const opts = { instruction: 'Does the document meet the query?' };
const pairs: ScorePair[] = [
  { query: 'extract pdf tables', document: 'pdf-extract | Extract text and tables from PDF' },
  { query: 'clean a csv', document: 'csv-clean | Clean CSV spreadsheets' },
];

describe('createCachedCrossEncoder', () => {
  it('scores new pairs once and answers repeats from the file, with the same values', async () => {
    lib = openTestLibrary();
    lib.add({ name: 'pdf-extract', description: 'Extract text and tables from PDF' });
    const inner = counted(createLexicalCrossEncoder(lib.db));
    const cached = createCachedCrossEncoder(inner, lib.db, 'v1');
    const first = await cached.score(pairs, opts);
    expect(cached.stats()).toEqual({ hits: 0, misses: 2 });
    const second = await cached.score([pairs[1]!, pairs[0]!, pairs[1]!], opts);
    expect(cached.stats()).toEqual({ hits: 3, misses: 2 });
    expect(inner.scored).toHaveLength(2);
    expect(second).toEqual([first[1], first[0], first[1]]);
    expect(first).toEqual(await createLexicalCrossEncoder(lib.db).score(pairs, opts));

    // A new process (a new wrapper over the same file) still hits.
    const later = createCachedCrossEncoder(counted(createLexicalCrossEncoder(lib.db)), lib.db, 'v1');
    await later.score(pairs, opts);
    expect(later.stats()).toEqual({ hits: 2, misses: 0 });
  });

  it('scores a pair repeated inside one batch once', async () => {
    lib = openTestLibrary();
    const inner = counted(createLexicalCrossEncoder(lib.db));
    const cached = createCachedCrossEncoder(inner, lib.db, 'v1');
    const out = await cached.score([pairs[0]!, pairs[0]!, pairs[0]!], opts);
    expect(inner.scored).toHaveLength(1);
    expect(out[0]).toEqual(out[2]);
    expect(cached.stats().misses).toBe(1);
  });

  it('never reuses scores across models, instruction versions, instruction texts or token budgets', async () => {
    lib = openTestLibrary();
    const base = createLexicalCrossEncoder(lib.db);
    await createCachedCrossEncoder(base, lib.db, 'v1').score(pairs, opts);
    const cases = [
      createCachedCrossEncoder(counted(base, 'other-model'), lib.db, 'v1').score(pairs, opts),
      createCachedCrossEncoder(counted(base), lib.db, 'v2').score(pairs, opts),
      createCachedCrossEncoder(counted(base), lib.db, 'v1').score(pairs, {
        instruction: 'Another instruction',
      }),
      createCachedCrossEncoder(counted(base), lib.db, 'v1').score(pairs, { ...opts, maxTokens: 256 }),
    ];
    await Promise.all(cases);
    expect(lib.db.prepare('SELECT count(*) FROM score_cache').pluck().get()).toBe(10);
  });
});
