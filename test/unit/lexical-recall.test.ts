// Lexical recall: BM25F over name, description and body with field weights, with the library filters.
import { afterEach, describe, expect, it } from 'vitest';
import { recallParams } from '../../src/core/models/lexical/library-index';
import { lexicalRecall } from '../../src/core/models/lexical/lexical-recall';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

describe('lexicalRecall', () => {
  it('ranks best first, K at most, and finds a skill whose body alone says what the query needs', () => {
    lib = openTestLibrary();
    const a = lib.add({ name: 'pdf-extract', description: 'Extract tables from PDF documents' });
    const b = lib.add({ name: 'doc-convert', description: 'Convert documents between formats' });
    const mail = lib.add({ name: 'mail', description: 'Send email', body: 'Can attach a PDF of tables.' });
    for (let i = 0; i < 10; i++) lib.add({ name: `misc-${i}`, description: `Unrelated helper number ${i}` });
    const hits = lexicalRecall(lib.db, 'extracting tables from pdf documents', 5);
    expect(hits[0]!.skillId).toBe(a);
    expect(new Set(hits.map((h) => h.skillId))).toEqual(new Set([a, b, mail]));
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(lexicalRecall(lib.db, 'helper', 3)).toHaveLength(3);
  });

  it('weights the fields: a term in the name outranks it in the description, which outranks it in the body', () => {
    lib = openTestLibrary();
    // Bodies of about the same length but different words: skills alike but for one word are copies (below).
    const filler = (words: string) => `${words}. `.repeat(4);
    const inBody = lib.add({
      name: 'notes-helper',
      description: 'Keeps notes',
      body: `Works with kubernetes. ${filler('Steps and checks for the tool, written out at length')}`,
    });
    const inName = lib.add({
      name: 'kubernetes-helper',
      description: 'Keeps notes',
      body: filler('Options of the command line with their default values'),
    });
    const inDescription = lib.add({
      name: 'cluster-helper',
      description: 'Keeps kubernetes notes',
      body: filler('Examples of output from a typical run of every step'),
    });
    for (let i = 0; i < 10; i++)
      lib.add({ name: `misc-${i}`, description: `Unrelated helper ${i}`, body: filler(`Misc ${i}`) });
    expect(
      lexicalRecall(lib.db, 'kubernetes', 5)
        .slice(0, 3)
        .map((h) => h.skillId),
    ).toEqual([inName, inDescription, inBody]);
  });

  it('gives copies of one skill (renamed, a line added) one place, so other skills keep theirs', () => {
    lib = openTestLibrary();
    const body =
      'Open the archive, list its entries, extract the ones asked for and check their sizes. '.repeat(6);
    const original = lib.add({ name: 'zip-extract', description: 'Extract files from zip archives', body });
    for (let i = 1; i <= 40; i++)
      lib.add({
        name: `zip-extract-v${i}`,
        description: `Extract files from zip archives (variant ${i})`,
        body: `${body}\nVariant ${i}: use this quickly.`,
      });
    const tar = lib.add({
      name: 'tar-unpack',
      description: 'Unpack tar archives',
      body: 'Run tar with x and f, then list what was written.',
    });
    for (let i = 0; i < 10; i++) lib.add({ name: `misc-${i}`, description: `Unrelated helper ${i}` });
    const hits = lexicalRecall(lib.db, 'extract files from zip archives', 5).map((h) => h.skillId);
    expect(hits[0]).toBe(original);
    expect(hits).toContain(tar);
  });

  it('in a large library, recalls a skill the task needs without naming it from the best skill, keeping the head', () => {
    lib = openTestLibrary();
    const heat = lib.add({
      name: 'kitchen-heat-food',
      description: 'Heat a food item in the kitchen microwave',
    });
    const locate = lib.add({
      name: 'kitchen-locate-item',
      description: 'Find where a food item lies in the kitchen',
    });
    for (let i = 0; i < 20; i++)
      lib.add({ name: `misc-${i}`, description: `Unrelated helper number ${i} for reports` });
    const task = 'warm up the soup with the microwave';
    // A small library keeps the lists the offline preset was tuned on: no feedback.
    expect(lexicalRecall(lib.db, task, 5).map((h) => h.skillId)).toEqual([heat]);
    // The same library counted as large (the threshold lowered for the test).
    const { feedback } = recallParams;
    const minSkills = feedback.minSkills;
    feedback.minSkills = 10;
    try {
      const hits = lexicalRecall(lib.db, task, 5);
      expect(hits[0]!.skillId).toBe(heat);
      expect(hits.map((h) => h.skillId)).toContain(locate);
      const scores = hits.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    } finally {
      feedback.minSkills = minSkills;
    }
  });

  it('sees a changed skill at once (the in-memory index follows the library)', () => {
    lib = openTestLibrary();
    const a = lib.add({ name: 'alpha', description: 'First tool' });
    expect(lexicalRecall(lib.db, 'zebra', 5)).toEqual([]);
    lib.update(a, { description: 'Counts zebra stripes' });
    expect(lexicalRecall(lib.db, 'zebra', 5).map((h) => h.skillId)).toEqual([a]);
    lib.remove(a);
    expect(lexicalRecall(lib.db, 'zebra', 5)).toEqual([]);
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
