// Keyword search that stays selective in a large library: the last word also matches as a prefix, a skill named
// exactly what was typed comes first, and a typed sentence is not an any-word search over "the", "in" and "a".
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSource, listSkills, searchKeyword } from '../../src/core/skills/index';
import { anyWordExpressions, selectiveTerms } from '../../src/core/search/keyword';
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

describe('any-word search over a bounded candidate set', () => {
  it('counts by the rare words alone and ranks without the words most of the library holds', async () => {
    const big = tempLibrary();
    try {
      const dir = path.join(big.dir, 'many');
      for (let i = 0; i < 40; i++)
        writeSkill(
          dir,
          `tool-${i}`,
          skillMd(`tool-${i}`, `Find and report item ${i} for the weekly review.`),
        );
      writeSkill(dir, 'zebra-count', skillMd('zebra-count', 'Count zebra stripes, then find the report.'));
      writeSkill(dir, 'zebra-find', skillMd('zebra-find', 'Find a zebra.'));
      await importSource(big.deps, { path: dir }, testJob());
      // Bounds scaled to a small library: at least 1 candidate, and 5 % of it.
      const bounds = { candidateShare: 0.05, minCandidates: 1, commonShare: 0.1 };
      const { count, rank } = anyWordExpressions(big.db, ['zebra', 'find', 'weekly'], bounds);
      expect(count).toBe('"zebra"');
      // "weekly" (40 of 42 skills) and "find" (42) are common: no candidate reads their lists to be ranked.
      expect(rank).toBe('"zebra"');
      const rarer = anyWordExpressions(big.db, ['zebra', 'stripes', 'weekly'], {
        ...bounds,
        commonShare: 0.5,
      });
      expect(rarer).toEqual({ count: '"stripes"', rank: '("stripes") AND ("stripes" OR "zebra")' });
    } finally {
      big.close();
    }
  });
});
