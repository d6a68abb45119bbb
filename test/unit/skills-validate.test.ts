// SKILL.md reading and Agent Skills validation: what is rejected (with file, line and rule), what is kept with warnings.
import { describe, expect, it } from 'vitest';
import { buildSkill, type BuildResult } from '../../src/core/skills/skill-md';
import { contentHash, summarizeBytes } from '../../src/core/skills/package-files';
import { defaultImportSettings } from '../../src/core/skills/types';

const file = 'demo/SKILL.md';
function build(
  text: string | Uint8Array,
  folderName: string | null = 'demo',
  extra: Partial<Parameters<typeof buildSkill>[0]> = {},
): BuildResult {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return buildSkill({
    bytes,
    file,
    relPath: 'demo',
    folderName,
    files: [],
    maxBytes: defaultImportSettings.skillMdMaxBytes,
    ...extra,
  });
}
function errors(r: BuildResult) {
  if (r.ok) throw new Error('expected a rejection');
  return r.issues;
}
const md = (fm: string, body = 'Do the thing.\n') => `---\n${fm}\n---\n${body}`;

describe('SKILL.md validation', () => {
  it('keeps a valid skill with its name, description, body and known keys', () => {
    const r = build(
      md(
        'name: demo\ndescription: Shows a demo.\nlicense: MIT\ncompatibility: Needs git\nmetadata:\n  author: us\nallowed-tools: Bash Read',
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.skill.name).toBe('demo');
    expect(r.skill.description).toBe('Shows a demo.');
    expect(r.skill.body).toBe('Do the thing.\n');
    expect(r.skill.frontMatter.metadata).toEqual({ author: 'us' });
    expect(r.skill.warnings).toEqual([]);
  });

  it.each([
    ['Demo', 'name-format'],
    ['-demo', 'name-format'],
    ['demo-', 'name-format'],
    ['de--mo', 'name-format'],
    ['de_mo', 'name-format'],
    ['a'.repeat(65), 'name-length'],
  ])('rejects the name %j with rule %s on the name line', (name, rule) => {
    const issues = errors(build(md(`description: d\nname: "${name}"`), name));
    expect(issues.map((i) => i.rule)).toContain(rule);
    expect(issues.find((i) => i.rule === rule)).toMatchObject({ file, line: 3, severity: 'error' });
  });

  it('rejects a name that differs from its folder and says both', () => {
    const [issue] = errors(build(md('name: other\ndescription: d'), 'demo'));
    expect(issue).toMatchObject({ rule: 'name-matches-folder', line: 2 });
    expect(issue!.message).toContain('"other"');
    expect(issue!.message).toContain('"demo"');
  });

  it('keeps a name/folder mismatch as a warning when the setting says so', () => {
    const r = build(md('name: other\ndescription: d'), 'demo', { nameFolderMismatch: 'warning' });
    expect(r.ok && r.skill.warnings.map((w) => w.rule)).toEqual(['name-matches-folder']);
  });

  it('keeps a name with capitals or spaces as a warning when the setting says so, but not an over-long one', () => {
    expect(errors(build(md('name: Demo Skill\ndescription: d'), 'Demo Skill')).map((i) => i.rule)).toEqual([
      'name-format',
    ]);
    const kept = build(md('name: Demo Skill\ndescription: d'), 'Demo Skill', { nameFormat: 'warning' });
    expect(kept.ok && kept.skill.warnings.map((w) => w.rule)).toEqual(['name-format']);
    const long = build(md(`name: Demo ${'x'.repeat(64)}\ndescription: d`), null, { nameFormat: 'warning' });
    expect(errors(long).map((i) => i.rule)).toEqual(['name-length']);
  });

  it('rejects missing or too long descriptions and over-long compatibility', () => {
    expect(errors(build(md('name: demo'))).map((i) => i.rule)).toEqual(['description-required']);
    expect(errors(build(md(`name: demo\ndescription: ${'x'.repeat(1025)}`)))[0]).toMatchObject({
      rule: 'description-length',
      line: 3,
    });
    expect(build(md(`name: demo\ndescription: ${'x'.repeat(1024)}`)).ok).toBe(true);
    expect(errors(build(md(`name: demo\ndescription: d\ncompatibility: ${'c'.repeat(501)}`)))[0]!.rule).toBe(
      'compatibility-length',
    );
    expect(errors(build(md('name: demo\ndescription: d\nmetadata: [a, b]')))[0]!.rule).toBe('metadata-type');
  });

  it('keeps unknown keys and non-text metadata as warnings with their lines', () => {
    const r = build(md('name: demo\ndescription: d\nversion: 1.0\nmetadata:\n  n: 3\nallowed-tools: [Bash]'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.skill.warnings.map((w) => [w.rule, w.line])).toEqual([
      ['metadata-value-type', 5],
      ['allowed-tools-type', 7],
      ['unknown-key', 4],
    ]);
  });

  it('rejects duplicate keys with the line of the second one', () => {
    const [issue] = errors(build(md('name: demo\ndescription: a\ndescription: b')));
    expect(issue).toMatchObject({ rule: 'front-matter-duplicate-key', line: 4, file });
  });

  it('rejects front matter that is not a mapping', () => {
    expect(errors(build(md('- name: demo\n- description: d')))[0]!.rule).toBe('front-matter-not-mapping');
    expect(errors(build(md('just a sentence')))[0]!.message).toContain('a single value');
  });

  it('rejects YAML syntax errors with a line', () => {
    expect(errors(build(md('name: demo\ndescription: "open')))[0]).toMatchObject({
      rule: 'front-matter-yaml',
    });
  });

  it('rejects a SKILL.md without --- fences, or with an unclosed one', () => {
    expect(errors(build('name: demo\ndescription: d\n'))[0]!.rule).toBe('front-matter-missing');
    expect(errors(build('---\nname: demo\ndescription: d\n'))[0]!.rule).toBe('front-matter-unclosed');
  });

  it('rejects invalid UTF-8 and names the line of the first bad byte', () => {
    const bytes = Buffer.concat([
      Buffer.from(md('name: demo\ndescription: d', 'ok\nbad: ')),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    const [issue] = errors(build(bytes));
    expect(issue).toMatchObject({ rule: 'skill-md-encoding', line: 6 });
    expect(errors(build(Buffer.from([0xed, 0xa0, 0x80])))[0]!.rule).toBe('skill-md-encoding'); // UTF-16 surrogate
  });

  it('rejects a binary SKILL.md', () => {
    expect(errors(build(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2])))[0]!.rule).toBe('skill-md-binary');
  });

  it('reads a SKILL.md with a byte-order mark and CRLF line ends', () => {
    const r = build('\uFEFF---\r\nname: demo\r\ndescription: d\r\n---\r\nBody\r\n');
    expect(r.ok && r.skill.name).toBe('demo');
  });

  it('content hash changes with SKILL.md or any package file, not with file order', () => {
    const a = summarizeBytes('references/a.md', Buffer.from('alpha'), 1024);
    const b = summarizeBytes('scripts/b.sh', Buffer.from('echo'), 1024);
    expect(contentHash('x', [a, b])).toBe(contentHash('x', [b, a]));
    expect(contentHash('x', [a, b])).not.toBe(contentHash('y', [a, b]));
    expect(contentHash('x', [a])).not.toBe(contentHash('x', [a, b]));
    expect(a).toMatchObject({ kind: 'reference', isText: true, textContent: 'alpha', size: 5 });
    expect(b).toMatchObject({ kind: 'script', isText: true, textContent: null });
  });
});
