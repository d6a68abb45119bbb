// Keyword search that stays selective in a large library: the last word also matches as a prefix, a skill named
// exactly what was typed comes first, and a typed sentence is not an any-word search over "the", "in" and "a".
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSource, listSkills, searchKeyword } from '../../src/core/skills/index';
import { selectiveTerms } from '../../src/core/search/keyword';
import {
  repoRoot,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeAll(async () => {
  lib = tempLibrary();
  await importSource(lib.deps, { path: path.join(repoRoot, 'resources/sample-library') }, testJob());
  const extra = path.join(lib.dir, 'pdf');
  writeSkill(extra, 'merge-pdf', skillMd('merge-pdf', 'Combine two documents into one file.'));
  writeSkill(
    extra,
    'pdf-merge-split',
    skillMd(
      'pdf-merge-split',
      'Merge PDF files and split PDF files; merge PDF pages, merge PDF bookmarks, PDF merge.',
    ),
  );
  await importSource(lib.deps, { path: extra }, testJob());
});
afterAll(() => lib.close());

const names = (query: string) => searchKeyword(lib.db, { query, limit: 50 }).hits.map((h) => h.skill.name);

describe('selective keyword search', () => {
  it('matches the last word as a prefix: "micro" finds the microwave and the microscope', () => {
    expect(names('micro')).toEqual(
      expect.arrayContaining(['household-heat-object-microwave', 'lab-focus-microscope']),
    );
    expect(names('heat micro')[0]).toBe('household-heat-object-microwave');
  });

  it('puts the skill named exactly what was typed first, with or without its hyphens', () => {
    expect(names('merge-pdf')[0]).toBe('merge-pdf');
    expect(names('merge pdf')[0]).toBe('merge-pdf');
    expect(names('merge pdf')).toContain('pdf-merge-split');
  });

  it('searches a typed sentence by the words that say what is wanted, not by "the" and "in"', () => {
    const library = listSkills(lib.db).total;
    const result = searchKeyword(lib.db, { query: 'put the zebra mug in the microwave', limit: 200 });
    expect(result.matched).toBe('any');
    expect(result.total).toBeLessThan(library / 2);
    expect(result.hits.slice(0, 3).map((h) => h.skill.name)).toContain('household-heat-object-microwave');
    expect(selectiveTerms(['the', 'in'])).toEqual(['the', 'in']);
  });
});
