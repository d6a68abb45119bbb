// Lexical recall: BM25 from FTS5 over the recall text (name + description), with the library filters.
import { afterEach, describe, expect, it } from 'vitest';
import { lexicalRecall } from '../../src/core/models/lexical/lexical-recall';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

describe('lexicalRecall', () => {
  it('ranks by name and description only, best first, K at most', () => {
    lib = openTestLibrary();
    const a = lib.add({ name: 'pdf-extract', description: 'Extract tables from PDF documents' });
    const b = lib.add({ name: 'doc-convert', description: 'Convert documents between formats' });
    lib.add({ name: 'mail', description: 'Send email', body: 'Can attach a PDF of tables.' });
    for (let i = 0; i < 10; i++) lib.add({ name: `misc-${i}`, description: `Unrelated helper number ${i}` });
    const hits = lexicalRecall(lib.db, 'extracting tables from pdf documents', 5);
    expect(hits.map((h) => h.skillId)).toEqual([a, b]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(lexicalRecall(lib.db, 'helper', 3)).toHaveLength(3);
  });

  it('treats FTS5 syntax in the query as words and returns nothing for a query without words', () => {
    lib = openTestLibrary();
    const a = lib.add({ name: 'near-field', description: 'NEAR field tools' });
    expect(lexicalRecall(lib.db, 'NEAR( "field" -tools* ^x', 5).map((h) => h.skillId)).toEqual([a]);
    expect(lexicalRecall(lib.db, ' -- ** ', 5)).toEqual([]);
  });

  it('applies the library filters', () => {
    lib = openTestLibrary();
    const other = lib.addSource('other');
    lib.add({ name: 'pdf-a', description: 'PDF tool' });
    const b = lib.add({ name: 'pdf-b', description: 'PDF tool' }, other);
    expect(lexicalRecall(lib.db, 'pdf', 5, { sourceId: other }).map((h) => h.skillId)).toEqual([b]);
  });
});
