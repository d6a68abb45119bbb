import { describe, expect, it } from 'vitest';
import { diffHunks, diffLines } from '../../../src/core/sources/line-diff';

const text = (d: ReturnType<typeof diffLines>) =>
  d.map((l) => `${l.op === 'same' ? ' ' : l.op === 'add' ? '+' : '-'}${l.text}`);

describe('line diff', () => {
  it('aligns unchanged lines and marks the rest as removed or added, with line numbers on both sides', () => {
    const d = diffLines('a\nb\nc\nd\n', 'a\nc\nx\nd\n');
    expect(text(d)).toEqual([' a', '-b', ' c', '+x', ' d']);
    expect(d[3]).toEqual({ op: 'add', text: 'x', newLine: 3 });
    expect(d[4]).toEqual({ op: 'same', text: 'd', oldLine: 4, newLine: 4 });
  });

  it('treats an empty side as all added or all removed, and CRLF like LF', () => {
    expect(text(diffLines('', 'one\ntwo'))).toEqual(['+one', '+two']);
    expect(text(diffLines('one\r\ntwo\r\n', ''))).toEqual(['-one', '-two']);
    expect(diffLines('same\r\n', 'same\n')).toEqual([{ op: 'same', text: 'same', oldLine: 1, newLine: 1 }]);
  });

  it('finds the longest common run rather than the first match', () => {
    expect(text(diffLines('x\na\nb\nc', 'a\nb\nc\nx'))).toEqual(['-x', ' a', ' b', ' c', '+x']);
  });

  it('folds long unchanged runs into gaps around the changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const hunks = diffHunks(diffLines(before, after), 2);
    expect(hunks[0]).toEqual({ op: 'gap', skipped: 7 });
    expect(hunks.filter((h) => h.op !== 'gap').map((h) => ('text' in h ? h.text : ''))).toEqual([
      'line 8',
      'line 9',
      'line 10',
      'line ten',
      'line 11',
      'line 12',
    ]);
    expect(hunks[hunks.length - 1]).toEqual({ op: 'gap', skipped: 8 });
  });
});
