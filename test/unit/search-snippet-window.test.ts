import { describe, expect, it } from 'vitest';
import {
  highlightEnd as E,
  highlightStart as S,
  snippetOfColumns,
} from '../../src/core/search/snippet-window';

const words = (n: number, word = 'filler'): string => Array.from({ length: n }, () => word).join(' ');

describe('snippetOfColumns', () => {
  it('gives a short column whole, as it reads', () => {
    expect(snippetOfColumns(['name', '', `Body   ${S}wombatfish${E}  .\n`, ''])).toBe(
      `Body   ${S}wombatfish${E}  .\n`,
    );
  });

  it('prefers the window with more distinct matched words over one word repeated, and marks the cuts', () => {
    const body = `${words(30)} ${S}alpha${E} ${S}alpha${E} ${S}alpha${E} ${words(30)} ${S}alpha${E} x ${S}beta${E} ${words(30)}`;
    const snippet = snippetOfColumns(['', '', body, '']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain(`${S}alpha${E} x ${S}beta${E}`);
    expect(snippet.replaceAll('…', '').replaceAll(S, '').replaceAll(E, '').trim().split(/\s+/)).toHaveLength(
      16,
    );
  });

  it('takes the column with the best matches, and closes a phrase the window cuts', () => {
    const phrase = `${words(20)} ${S}${words(20, 'step')}${E}`;
    const snippet = snippetOfColumns([`${S}step${E} ${S}one${E}`, '', phrase, '']);
    expect(snippet).toBe(`${S}step${E} ${S}one${E}`);
    const cut = snippetOfColumns(['', '', phrase, '']);
    expect(cut.split(S).length - 1).toBe(cut.split(E).length - 1);
  });

  it('answers for a text repeating a matched word tens of thousands of times (one pass per match)', () => {
    const body = Array.from({ length: 40_000 }, () => `${S}data${E} pipeline`).join(' ');
    const snippet = snippetOfColumns(['', '', body, '']);
    expect(snippet.startsWith(`${S}data${E} pipeline`)).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('is empty when nothing is highlighted', () => {
    expect(snippetOfColumns(['a', 'b', 'c', ''])).toBe('');
  });
});
