// Each variant of an evaluation keeps one colour in every chart; the k of a ranked variant is its fill. Counting rows
// gave dense (k=1) the colour of full and no-parse (k=1) that of dense (k=2).
import { describe, expect, it } from 'vitest';
import { seriesClass } from '../../src/renderer/src/evaluation/series';

describe('chart series', () => {
  it('gives each variant its own colour, and its k a fill', () => {
    const rows = [
      { variant: 'full' },
      { variant: 'no-parse', k: 1 },
      { variant: 'no-parse', k: 2 },
      { variant: 'dense', k: 1 },
      { variant: 'dense', k: 2 },
      { variant: 'dense', k: 3 },
    ];
    const classes: string[] = rows.map(seriesClass);
    expect(new Set(classes).size).toBe(rows.length);
    const tone = (c: string): string => c.split(' ')[0]!;
    expect(new Set([classes[0]!, classes[1]!, classes[3]!].map(tone)).size).toBe(3);
    expect(tone(classes[3]!)).toBe(tone(classes[5]!));
    expect(classes[5]).toMatch(/k-shade-3$/);
    expect(classes[3]).not.toMatch(/k-shade/);
  });
});
