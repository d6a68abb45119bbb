// read_skill's path rule: a path inside the skill package is taken as given; anything that could leave the package
// (absolute, drive letter, backslash, "..", ".", empty segments, NUL) is refused with the same clear message.
import { describe, expect, it } from 'vitest';
import { checkPackagePath } from '../../src/mcp/skill-content';

describe('checkPackagePath', () => {
  it('takes package-relative paths', () => {
    for (const p of ['SKILL.md', 'references/guide.md', 'scripts/run.sh', 'assets/a b/c.png'])
      expect(checkPackagePath(p)).toBe(p);
  });

  it('refuses every path that could leave the package', () => {
    for (const p of [
      '',
      '/etc/passwd',
      '../other/SKILL.md',
      'references/../../x',
      './SKILL.md',
      'references//guide.md',
      'references/',
      'C:/Windows/win.ini',
      'references\\..\\x',
      'a\0b',
    ])
      expect(() => checkPackagePath(p), p).toThrow(/Refused path .*no "\.\.", no absolute path/);
  });
});
