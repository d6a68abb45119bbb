import { describe, expect, it } from 'vitest';
import { variantsDiffer } from '../../src/core/eval/variants-differ';

describe('variantsDiffer', () => {
  it('does not count one ranked variant at k = 1 against itself at k = 2', () => {
    expect(
      variantsDiffer([{ f1: 1 }, { k: 1, f1: 0.67 }, { k: 2, f1: 1 }, { k: 1, f1: 0.67 }, { k: 2, f1: 1 }]),
    ).toBe(true); // full (1) against the ranked variants at k = 1 (0.67)
    expect(
      variantsDiffer([
        { k: 1, f1: 0.67 },
        { k: 2, f1: 1 },
        { k: 1, f1: 0.67 },
        { k: 2, f1: 1 },
      ]),
    ).toBe(false);
  });

  it('finds two ranked variants that disagree at one k, and adaptive variants that disagree', () => {
    expect(
      variantsDiffer([
        { k: 1, f1: 1 },
        { k: 2, f1: 0.67 },
        { k: 1, f1: 1 },
        { k: 2, f1: 0.5 },
      ]),
    ).toBe(true);
    expect(variantsDiffer([{ f1: 1 }, { f1: 0.5 }])).toBe(true);
    expect(variantsDiffer([{ f1: 0.5 }, { f1: 0.5 }])).toBe(false);
  });
});
