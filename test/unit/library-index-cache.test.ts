// The lexical engines' library index is kept per library file: an edit to states makes only the states' background
// again (sharing what was built from the skills), an edit to a skill rebuilds it, and either way the statistics equal
// an index built from scratch.
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryIndex, type Row } from '../../src/core/models/lexical/library-index';
import { libraryIndex } from '../../src/core/models/lexical/library-index-cache';
import { editStates } from '../../src/core/states/skill-states';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

let tick = 0;
const clock = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));

function fromScratch(db: TestLibrary['db']): LibraryIndex {
  const rows = db.prepare('SELECT id, name, description, body FROM skills ORDER BY id').all() as Row[];
  const states = db
    .prepare(
      `SELECT text FROM (SELECT skill_id, 0 AS k, precondition AS text FROM skill_states
         UNION ALL SELECT skill_id, 1, completion FROM skill_states) WHERE text IS NOT NULL ORDER BY skill_id, k`,
    )
    .pluck()
    .all() as string[];
  return new LibraryIndex(rows, states);
}

const query = ['mug', 'hot', 'cold'];

describe('libraryIndex (the per-library cache)', () => {
  it('answers a states edit from the skills it already read, with the statistics of a fresh index', () => {
    lib = openTestLibrary();
    const heat = lib.add({ name: 'heat-mug', description: 'Heat a mug in the microwave' });
    const cool = lib.add({ name: 'cool-mug', description: 'Cool a mug in the fridge' });
    editStates(lib.db, clock, heat, {
      precondition: 'The robot holds a mug.',
      completion: 'The mug is hot.',
    });
    const first = libraryIndex(lib.db);
    expect(libraryIndex(lib.db)).toBe(first);

    editStates(lib.db, clock, cool, {
      precondition: 'The robot holds a mug.',
      completion: 'The mug is cold.',
    });
    const second = libraryIndex(lib.db);
    expect(second).not.toBe(first);
    // Built from the same skills: the skill-sized background is the same object, not tokenised again.
    expect(second.documents).toBe(first.documents);
    expect(second.summaries).not.toBe(first.summaries);
    const fresh = fromScratch(lib.db);
    expect(second.summaries.background(query)).toEqual(fresh.summaries.background(query));
    expect(second.summaries.idf('cold')).toBeLessThan(first.summaries.idf('cold'));
    // The index the first selection holds keeps the statistics it started with.
    expect(first.summaries.background(query)).not.toEqual(fresh.summaries.background(query));
    expect(second.rankDistinct('heat a mug', 2)).toEqual(fresh.rankDistinct('heat a mug', 2));
  });

  it('rebuilds when a skill changes', () => {
    lib = openTestLibrary();
    const heat = lib.add({ name: 'heat-mug', description: 'Heat a mug in the microwave' });
    lib.add({ name: 'cool-mug', description: 'Cool a mug in the fridge' });
    const first = libraryIndex(lib.db);
    lib.update(heat, { description: 'Warm a mug of coffee in the microwave oven' });
    const second = libraryIndex(lib.db);
    expect(second.documents).not.toBe(first.documents);
    expect(second.rankDistinct('warm coffee', 2)).toEqual(fromScratch(lib.db).rankDistinct('warm coffee', 2));
    expect(second.rankDistinct('warm coffee', 2)[0]!.skillId).toBe(heat);
  });
});
