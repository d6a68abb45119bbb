import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/core/usage/usage-csv';
import { usagePeriod } from '../../src/core/usage/usage-period';

const now = new Date('2026-12-07T12:00:00Z');

describe('usagePeriod', () => {
  it('reads dates, times and spans back from now; a date as the end takes the whole day', () => {
    expect(usagePeriod({ from: '2026-12-01', to: '2026-12-01' }, now)).toEqual({
      from: '2026-12-01T00:00:00.000Z',
      to: '2026-12-02T00:00:00.000Z',
    });
    expect(usagePeriod({ from: '30d' }, now)).toEqual({ from: '2026-11-07T12:00:00.000Z', to: null });
    expect(usagePeriod({ from: '12h', to: '2026-12-07T11:30:00Z' }, now)).toEqual({
      from: '2026-12-07T00:00:00.000Z',
      to: '2026-12-07T11:30:00.000Z',
    });
    expect(usagePeriod({}, now)).toEqual({ from: null, to: null });
  });

  it('refuses what is not a date, a span as the end, and a period that ends before it starts', () => {
    expect(() => usagePeriod({ from: 'monday' }, now)).toThrow(/"monday" is not a date/);
    expect(() => usagePeriod({ from: '12' }, now)).toThrow(/is not a date/);
    expect(() => usagePeriod({ to: '3d' }, now)).toThrow(/not a span/);
    expect(() => usagePeriod({ from: '2026-12-02', to: '2026-12-01' }, now)).toThrow(
      /starts .* after it ends/,
    );
  });
});

describe('csvCell', () => {
  it('quotes separators and quotes, and keeps agent text from being read as a formula', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b "c"')).toBe('"a,b ""c"""');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});
