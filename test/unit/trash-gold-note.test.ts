// A delete of skills that label sets name as gold says so: their evaluations count them as misses until restored.
import { describe, expect, it } from 'vitest';
import { goldInNote } from '../../src/shared/trash-words';

describe('gold in a delete', () => {
  it('says nothing when no label set names the skills', () => {
    expect(goldInNote([])).toBeNull();
    expect(goldInNote(undefined)).toBeNull();
  });

  it('names the sets and the skills, one or several', () => {
    expect(goldInNote([{ set: 'sample', skills: ['make-coffee'] }])).toBe(
      'make-coffee is gold in the label set “sample”: evaluations count it as a miss until the delete is restored.',
    );
    expect(
      goldInNote([
        { set: 'a', skills: ['x', 'y'] },
        { set: 'b', skills: ['y'] },
      ]),
    ).toBe(
      '2 of these skills are gold in the label sets “a” (x, y), “b” (y): evaluations count them as misses until the delete is restored.',
    );
  });
});
