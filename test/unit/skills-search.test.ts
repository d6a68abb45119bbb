// Keyword search on the bundled sample library: BM25 with name > description > body, safe snippets, filters, and
// user text that can never break the FTS5 query syntax.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  highlightEnd,
  highlightStart,
  importSource,
  listSources,
  searchKeyword,
  snippetRuns,
} from '../../src/core/skills/index';
import { matchExpression, queryTerms } from '../../src/core/search/keyword';
import {
  repoRoot,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

const sampleDir = path.join(repoRoot, 'resources/sample-library');
let lib: TempLibrary;
beforeAll(async () => {
  lib = tempLibrary();
  const report = await importSource(lib.deps, { path: sampleDir }, testJob());
  expect(report.rejected).toEqual([]);
});
afterAll(() => lib.close());

const names = (text: string, extra = {}) =>
  searchKeyword(lib.db, { query: text, ...extra }).hits.map((h) => h.skill.name);

describe('keyword search', () => {
  it('ranks the skill named after the word above skills that only mention it in their text', () => {
    const hits = names('microwave');
    expect(hits[0]).toBe('household-heat-object-microwave');
    expect(hits).toContain('household-heat-object-stove'); // mentions the microwave only in its body
    expect(names('thermometer')[0]).toBe('lab-measure-temperature-thermometer');
    expect(names('fridge')[0]).toBe('household-cool-object-fridge');
  });

  it('scores a name match higher than the same word in the body, all else equal', async () => {
    const root = path.join(lib.dir, 'weights');
    writeSkill(root, 'polish-brass', skillMd('polish-brass', 'Make metal shine.', 'Rub it with a cloth.\n'));
    writeSkill(
      root,
      'rub-metal',
      skillMd('rub-metal', 'Make metal shine.', 'Polish the brass with a cloth.\n'),
    );
    const { sourceId } = await importSource(lib.deps, { path: root }, testJob());
    expect(names('brass', { sourceId })).toEqual(['polish-brass', 'rub-metal']);
  });

  it('finds words by stem and returns snippets whose marks come only from the index', () => {
    const [hit] = searchKeyword(lib.db, { query: 'heating microwaves' }).hits;
    expect(hit!.snippet).toContain(highlightStart);
    expect(hit!.snippet).toContain(highlightEnd);
    expect(hit!.snippet).not.toMatch(/<[a-z]/i);
    const runs = snippetRuns(hit!.snippet);
    expect(runs.some((r) => r.highlight && /microwave/i.test(r.text))).toBe(true);
  });

  it('never lets user text reach FTS5 syntax', () => {
    for (const text of [
      '"',
      'NEAR(',
      'a OR',
      '* ^ -',
      'name:heat',
      'AND NOT',
      "'); DROP TABLE skills;--",
      '(((',
    ]) {
      expect(() => searchKeyword(lib.db, { query: text })).not.toThrow();
    }
    expect(names('microwave* ^')[0]).toBe('household-heat-object-microwave');
    expect(queryTerms('Heat "the" MUG, now!')).toEqual(['heat', 'the', 'mug', 'now']);
    expect(matchExpression(['a', 'b'], 'AND')).toBe('"a" AND "b"');
    expect(searchKeyword(lib.db, { query: '  ?? ' })).toMatchObject({ total: 0, matched: 'none' });
  });

  it('falls back to any word when no skill has all of them, and says so', () => {
    const strict = searchKeyword(lib.db, { query: 'microwave checkout' });
    expect(strict.matched).toBe('any');
    expect(strict.hits.map((h) => h.skill.name)).toEqual(
      expect.arrayContaining(['household-heat-object-microwave', 'shop-checkout']),
    );
    expect(searchKeyword(lib.db, { query: 'heat microwave' }).matched).toBe('all');
  });

  it('filters by source, review status and problems', () => {
    const sample = listSources(lib.db).find((s) => s.uri.endsWith('sample-library'))!;
    expect(names('microwave', { sourceId: sample.id + 100 })).toEqual([]);
    expect(names('microwave', { sourceId: sample.id })[0]).toBe('household-heat-object-microwave');
    // No skill has a states row yet, so every one is unparsed.
    expect(names('microwave', { status: 'unparsed' })[0]).toBe('household-heat-object-microwave');
    expect(names('microwave', { status: 'verified' })).toEqual([]);
    expect(names('microwave', { hasErrors: true })).toEqual([]);
    expect(() => searchKeyword(lib.db, { query: 'x', status: 'bogus' as never })).toThrow(
      /Unknown review status/,
    );
  });

  it('pages results with a stable total', () => {
    const all = searchKeyword(lib.db, { query: 'object', limit: 200 });
    const page = searchKeyword(lib.db, { query: 'object', limit: 2, offset: 2 });
    expect(page.total).toBe(all.total);
    expect(page.hits.map((h) => h.skill.id)).toEqual(all.hits.slice(2, 4).map((h) => h.skill.id));
  });
});
