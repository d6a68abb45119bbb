// A JSONL line's keys become the skill's front matter without parsing back the YAML written from them: the skill must be
// exactly what reading that written SKILL.md gives (the only way the library read JSONL lines before).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildSkill, type BuildResult } from '../../src/core/skills/skill-md';
import { lineToSkill } from '../../src/core/skills/sources/jsonl-skill';
import { firstInvalidUtf8 } from '../../src/core/skills/text-bytes';
import { defaultImportSettings } from '../../src/core/skills/types';

/** The SKILL.md path: the text written from the keys, read as a SKILL.md, issues moved to the JSONL line. */
function asSkillMd(obj: Record<string, unknown>, lineNo: number): BuildResult {
  const { body, path: _path, files: _files, ...frontMatter } = obj;
  const text = `---\n${stringify(frontMatter)}---\n\n${body as string}`;
  const result = buildSkill({
    bytes: Buffer.from(text, 'utf8'),
    file: 'dump.jsonl',
    relPath: 'place',
    folderName: null,
    files: [],
    maxBytes: defaultImportSettings.skillMdMaxBytes,
  });
  const atLine = (issues: { line?: number }[]) => issues.map((i) => ({ ...i, line: lineNo }));
  return result.ok
    ? ({ ok: true, skill: { ...result.skill, warnings: atLine(result.skill.warnings) } } as BuildResult)
    : ({ ok: false, issues: atLine(result.issues) } as BuildResult);
}

const base = { name: 'some-skill', description: 'Does a thing.', body: '# Some skill\n\nSteps.\n' };
const cases: [string, Record<string, unknown>][] = [
  ['plain', base],
  [
    'nested metadata and lists',
    { ...base, metadata: { author: 'x', tags: ['a', 'b'], n: 3 }, license: 'MIT' },
  ],
  [
    'strings that read as other types',
    {
      ...base,
      metadata: { a: 'true', b: 'null', c: '1.5', d: '2024-01-01', e: '~', f: '0x1F', g: '.inf', h: 'yes' },
    },
  ],
  ['numbers', { ...base, metadata: { big: 1e21, neg: -0, frac: 0.1, int: 10 } }],
  ['keys that read as numbers', { ...base, metadata: { '1': 'one', '2.5': 'x', true: 'y' } }],
  [
    'multi-line text with a fence line',
    { ...base, description: 'First.\n---\nSecond.', compatibility: 'a\n\nb  ' },
  ],
  ['a CR in a value', { ...base, description: 'One\rTwo' }],
  ['unicode', { ...base, description: 'Über “quotes” 😀 \u2028 line sep' }],
  ['an unpaired surrogate', { ...base, description: 'bad \ud800 half' }],
  ['a NUL', { ...base, description: 'nul \u0000 here' }],
  ['no keys but the body', { body: 'Only a body.' }],
  ['a name the rules refuse', { ...base, name: 'Not A Name!' }],
  ['a description too long', { ...base, description: 'x'.repeat(1100) }],
  ['metadata empty', { ...base, metadata: null }],
  ['unknown key', { ...base, 'x-extra': { deep: [{ a: 1 }] } }],
  ['a __proto__ key', JSON.parse('{"name":"p-skill","description":"d","body":"b","__proto__":{"x":1}}')],
  ['many small numbers', { ...base, metadata: { list: Array.from({ length: 9000 }, () => 1) } }],
  ['body with a leading newline and CRLF', { ...base, body: '\r\nLine one\r\nLine two' }],
];

describe('JSONL line to skill', () => {
  it.each(cases)('%s: the same skill as reading the written SKILL.md', (_, obj) => {
    const got = lineToSkill(obj, 'place', 'dump.jsonl', 7, defaultImportSettings);
    expect(got).toEqual(asSkillMd(obj, 7));
  });
});

describe('UTF-8 check', () => {
  const bad: [string, number[], number][] = [
    ['overlong slash', [0x61, 0xc0, 0xaf], 1],
    ['overlong three bytes', [0xe0, 0x80, 0xaf], 0],
    ['surrogate', [0x61, 0x62, 0xed, 0xa0, 0x80], 2],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['cut short', [0x61, 0xe2, 0x82], 1],
    ['lone continuation', [0x80], 0],
  ];
  it.each(bad)('finds the first bad byte: %s', (_, bytes, at) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(at);
  });
  it('passes valid text of every width', () => {
    expect(firstInvalidUtf8(Buffer.from('aé€😀 \u2028', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array(0))).toBe(-1);
  });
});
