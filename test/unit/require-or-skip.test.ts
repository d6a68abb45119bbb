// The guard for suites that need Chromium or ../shared/data: a loud skip on a developer machine, a failure in CI.
import { describe, expect, it } from 'vitest';
import { isCi, requireOrSkip } from '../fixtures/require-or-skip';

describe('requireOrSkip', () => {
  it('lets an available suite run, in CI or not, without a word', () => {
    const lines: string[] = [];
    expect(requireOrSkip(true, 'x', { CI: 'true' }, (l) => lines.push(l))).toBe(true);
    expect(requireOrSkip(true, 'x', {}, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual([]);
  });

  it('fails under CI=true with the reason', () => {
    expect(() => requireOrSkip(false, 'no Chromium at /usr/bin/chromium', { CI: 'true' })).toThrow(
      'Cannot run this suite: no Chromium at /usr/bin/chromium. Under CI a suite that cannot run fails instead of skipping.',
    );
    expect(() => requireOrSkip(false, 'why', { CI: '1' })).toThrow(/why/);
  });

  it('skips elsewhere and prints why', () => {
    const lines: string[] = [];
    expect(
      requireOrSkip(false, 'no ../shared/data/zjunlp-skills', { CI: 'false' }, (l) => lines.push(l)),
    ).toBe(false);
    expect(lines).toEqual([
      '\n*** SKIPPED SUITE: no ../shared/data/zjunlp-skills. (Under CI=true this fails the run.) ***\n',
    ]);
  });

  it('reads CI as set unless it is empty, 0 or false', () => {
    expect([{}, { CI: '' }, { CI: '0' }, { CI: 'false' }, { CI: 'FALSE' }].map((e) => isCi(e))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([{ CI: 'true' }, { CI: '1' }, { CI: 'True' }].map((e) => isCi(e))).toEqual([true, true, true]);
  });
});
