// What the CLI and the Evaluation screen say of a label set's gold skills the library lacks.
import { describe, expect, it } from 'vitest';
import { missingGoldWords } from '../../src/shared/gold-coverage-words';

const restore = (ids: number[]) => `restore ${ids.join(' and ')}`;

describe('missing gold words', () => {
  it('say nothing when the library holds every gold skill', () => {
    expect(missingGoldWords({ total: 3, missing: [], inTrash: [] }, restore)).toBeNull();
  });

  it('name the missing ones, the first five, and what to do', () => {
    const missing = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(missingGoldWords({ total: 9, missing, inTrash: [] }, restore)).toBe(
      '6 of the 9 gold skills of this label set are not in the library (a, b, c, d, e, …); they count as misses.' +
        ' Import the skills the set was written for, or label tasks for this library.',
    );
  });

  it('say how to restore those in the trash, and nothing of importing when all of them are', () => {
    expect(
      missingGoldWords({ total: 3, missing: ['a'], inTrash: [{ name: 'a', deleteId: 4 }] }, restore),
    ).toBe(
      '1 of the 3 gold skills of this label set is not in the library (a); it counts as a miss. It is in the trash: restore 4.',
    );
    const two = [
      { name: 'a', deleteId: 4 },
      { name: 'b', deleteId: 4 },
    ];
    expect(missingGoldWords({ total: 3, missing: ['a', 'b'], inTrash: two }, restore)).toBe(
      '2 of the 3 gold skills of this label set are not in the library (a, b); they count as misses. All are in the trash: restore 4.',
    );
  });
});
