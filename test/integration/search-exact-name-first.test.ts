// A skill's exact name (or its words) finds that skill first in every search mode and in the selection's lexical
// recall, however many skills outrank it on the words alone (issue 26: in a 68,000-skill library `search
// alfworld-object-locator` did not list it in its first two; FTS5 ignored the rowid constraint bound as a number
// and the exact hit was replaced by the best-ranked row).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalRecall } from '../../src/core/models/lexical/lexical-recall';
import { searchSkills } from '../../src/core/search/hybrid';
import { importSource, searchKeyword } from '../../src/core/skills/index';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
const nameOf = (id: number): string =>
  lib.db.prepare('SELECT name FROM skills WHERE id = ?').pluck().get(id) as string;

beforeAll(async () => {
  lib = tempLibrary();
  const root = path.join(lib.dir, 'src');
  // Imported first, so the skill named exactly has the smallest id but weak evidence for its own words elsewhere.
  writeSkill(root, 'object-locator', skillMd('object-locator', 'Finds where a thing was left in a room.'));
  // Forty skills whose every field repeats the words: on BM25 alone each outranks the skill named exactly.
  for (let i = 0; i < 40; i++)
    writeSkill(
      root,
      `object-locator-object-locator-${i}`,
      skillMd(
        `object-locator-object-locator-${i}`,
        `Object locator - object locator, locate the object with the object locator (copy ${i}).`,
        `# Object locator\n\nLocate the object. The object locator locates objects: object, locator, object.\n`,
      ),
    );
  // Skills without the words, so the words weigh something.
  for (let i = 0; i < 60; i++)
    writeSkill(root, `bread-baker-${i}`, skillMd(`bread-baker-${i}`, `Bakes a loaf of bread (recipe ${i}).`));
  const report = await importSource(lib.deps, { path: root }, testJob());
  expect(report.counts?.added).toBe(101);
});
afterAll(() => lib.close());

describe('a skill searched by its exact name', () => {
  it('comes first in keyword search although forty skills outrank it on the words', () => {
    for (const query of ['object-locator', 'object locator', 'Object Locator'])
      expect(searchKeyword(lib.db, { query, limit: 2 }).hits.map((h) => h.skill.name)).toEqual([
        'object-locator',
        expect.stringMatching(/^object-locator-object-locator-/),
      ]);
  });

  it('comes first in dense and hybrid search, and in the lexical recall a selection starts from', async () => {
    for (const mode of ['dense', 'hybrid'] as const) {
      const result = await searchSkills({ db: lib.db }, { query: 'object-locator', mode, limit: 3 });
      expect(result.hits[0]!.skill.name).toBe('object-locator');
      expect(result.hits.filter((h) => h.skill.name === 'object-locator')).toHaveLength(1);
    }
    const recalled = lexicalRecall(lib.db, 'object locator', 5);
    expect(nameOf(recalled[0]!.skillId)).toBe('object-locator');
    expect(recalled[0]!.score).toBeGreaterThan(recalled[1]!.score);
    expect(new Set(recalled.map((r) => r.skillId)).size).toBe(recalled.length);
  });

  it('does not promote a skill whose name only contains the words', () => {
    const hits = searchKeyword(lib.db, { query: 'locator copy', limit: 3 }).hits;
    expect(hits.map((h) => h.skill.name)).not.toContain('object-locator');
    expect(nameOf(lexicalRecall(lib.db, 'locate a thing left in a room', 1)[0]!.skillId)).toBe(
      'object-locator',
    );
  });
});
