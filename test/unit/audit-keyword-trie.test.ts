// The keyword prefilter written as a trie finds a keyword exactly where the plain alternation of every keyword does.
import { describe, expect, it } from 'vitest';
import { trieSource } from '../../src/core/audit/scan-file';

const escaped = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('keyword trie', () => {
  it('matches the same lines as the plain alternation', () => {
    const words = [
      'curl',
      'cron',
      'chmod',
      'chown',
      'rm ',
      'rm\t',
      'rmdir',
      '.ssh',
      'c',
      'a.b',
      'x|y',
      '(',
      'ignore',
      'ign',
    ];
    const trie = new RegExp(trieSource(words));
    const plain = new RegExp(words.map(escaped).join('|'));
    const alphabet = 'crmhodwnu .s\tiygxab|(e';
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5000; i++) {
      const line = Array.from(
        { length: 1 + Math.floor(rnd() * 12) },
        () => alphabet[Math.floor(rnd() * alphabet.length)],
      ).join('');
      expect(trie.test(line), line).toBe(plain.test(line));
    }
    expect(new RegExp(trieSource([])).test('anything')).toBe(false);
  });
});
