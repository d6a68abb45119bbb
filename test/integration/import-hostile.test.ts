// Hostile input: each case gets a clear error naming its rule, and the good skill beside it is still imported.
import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource, listSkills } from '../../src/core/skills/index';
import type { ImportReport } from '../../src/core/skills/types';
import {
  patchDeclaredSize,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  writeZip,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

const good = { name: 'good/fine-skill/SKILL.md', content: skillMd('fine-skill', 'Still imported.') };
const rules = (r: ImportReport) => r.rejected.flatMap((x) => x.issues.map((i) => i.rule));
const names = () => listSkills(lib.db).items.map((s) => s.name);

describe('hostile zip archives', () => {
  it('refuses entries that climb out with ../ and imports the rest', async () => {
    const zip = path.join(lib.dir, 'a.zip');
    await writeZip(zip, [good, { name: '../evil/SKILL.md', content: skillMd('evil', 'escape') }]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.rejected).toHaveLength(1);
    expect(report.rejected[0]!.issues[0]).toMatchObject({
      rule: 'zip-unsafe-path',
      file: '../evil/SKILL.md',
    });
    expect(report.rejected[0]!.issues[0]!.message).toContain('..');
    expect(names()).toEqual(['fine-skill']);
  });

  it('refuses absolute paths and drive letters', async () => {
    const zip = path.join(lib.dir, 'b.zip');
    await writeZip(zip, [
      good,
      { name: '/etc/evil/SKILL.md', content: 'x' },
      { name: 'C:/evil/SKILL.md', content: 'x' },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.rejected.map((r) => r.issues[0]!.message)).toEqual([
      expect.stringContaining('absolute path'),
      expect.stringContaining('drive letter'),
    ]);
    expect(names()).toEqual(['fine-skill']);
  });

  it('refuses symlink entries and rejects the skill that holds one', async () => {
    const zip = path.join(lib.dir, 'c.zip');
    await writeZip(zip, [
      good,
      { name: 'linky/SKILL.md', content: skillMd('linky', 'Has a link.') },
      { name: 'linky/references/passwd', content: '/etc/passwd', mode: 0o120777 },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'linky',
        issues: [expect.objectContaining({ rule: 'zip-symlink', file: 'linky/references/passwd' })],
      }),
    ]);
    expect(names()).toEqual(['fine-skill']);
  });

  it('stops a zip bomb (200 MB of zeros) from its declared sizes, without expanding it', async () => {
    const zip = path.join(lib.dir, 'bomb.zip');
    await writeZip(zip, [
      good,
      { name: 'boom/SKILL.md', content: skillMd('boom', 'Carries a bomb.') },
      { name: 'boom/assets/zeros.bin', zeros: 200 * 1024 * 1024 },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(rules(report)).toEqual(['zip-bomb']);
    expect(report.rejected[0]!.issues[0]!.message).toMatch(/expands \d+x/);
    expect(names()).toEqual(['fine-skill']);
  });

  it('stops an entry that expands past the size it declares, while streaming', async () => {
    const zip = path.join(lib.dir, 'liar.zip');
    await writeZip(zip, [
      good,
      { name: 'liar/SKILL.md', content: skillMd('liar', 'Lies about sizes.') },
      { name: 'liar/assets/zeros.bin', zeros: 8 * 1024 * 1024 },
    ]);
    const bytes = readFileSync(zip);
    patchDeclaredSize(bytes, 'liar/assets/zeros.bin', 1000);
    writeFileSync(zip, bytes);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'liar',
        issues: [expect.objectContaining({ rule: 'zip-corrupt' })],
      }),
    ]);
    expect(report.rejected[0]!.issues[0]!.message).toMatch(/too many bytes|larger than/);
    expect(names()).toEqual(['fine-skill']);
  });

  it('stops an archive whose total expansion passes the cap, keeping what came before', async () => {
    const zip = path.join(lib.dir, 'big.zip');
    const noise = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919) % 251));
    await writeZip(zip, [
      good,
      { name: 'z1/SKILL.md', content: skillMd('z1', 'one') },
      { name: 'z1/assets/a.bin', content: noise(4096) },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob(), {
      settings: { zipTotalMaxBytes: 2048 },
    });
    expect(rules(report)).toContain('zip-too-large');
    expect(names()).toEqual(['fine-skill']);
  });
});

describe('hostile folders and files', () => {
  it('rejects a symlink that points outside the source; follows one inside; survives a loop', async () => {
    const root = path.join(lib.dir, 'src');
    const outside = path.join(lib.dir, 'secret.txt');
    writeFileSync(outside, 'secret');
    writeSkill(root, 'fine-skill', skillMd('fine-skill', 'Fine.'), { 'references/real.md': 'shared words' });
    writeSkill(root, 'leaky', skillMd('leaky', 'Leaks.'));
    mkdirSync(path.join(root, 'leaky/references'));
    symlinkSync(outside, path.join(root, 'leaky/references/secret.txt'));
    writeSkill(root, 'linked', skillMd('linked', 'Links inside.'));
    symlinkSync(path.join(root, 'fine-skill/references'), path.join(root, 'linked/references'));
    symlinkSync(root, path.join(root, 'linked/loop'));

    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'leaky',
        issues: [
          expect.objectContaining({ rule: 'symlink-escapes-source', file: 'leaky/references/secret.txt' }),
        ],
      }),
    ]);
    expect(names().sort()).toEqual(['fine-skill', 'linked']);
    const linked = listSkills(lib.db).items.find((s) => s.name === 'linked')!;
    expect(linked.fileCount).toBe(1);
  });

  it('rejects a 50 MB SKILL.md from its size, in a folder and as a single file', async () => {
    const root = path.join(lib.dir, 'src');
    writeSkill(root, 'fine-skill', skillMd('fine-skill', 'Fine.'));
    const huge = path.join(writeSkill(root, 'huge', skillMd('huge', 'Huge.')), 'SKILL.md');
    const fd = openSync(huge, 'r+');
    writeSync(fd, Buffer.from('\n'), 0, 1, 50 * 1024 * 1024 - 1); // sparse: 50 MB on paper, nothing written in between
    closeSync(fd);
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'huge',
        issues: [expect.objectContaining({ rule: 'skill-md-too-large' })],
      }),
    ]);
    expect(report.rejected[0]!.issues[0]!.message).toContain(String(50 * 1024 * 1024));
    expect(names()).toEqual(['fine-skill']);
    const single = await importSource(lib.deps, { path: huge }, testJob());
    expect(rules(single)).toEqual(['skill-md-too-large']);
  });

  it.each([
    ['a binary SKILL.md', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0]), 'skill-md-binary'],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from('---\nname: bad\ndescription: caf'),
        Buffer.from([0xe9]),
        Buffer.from('\n---\n'),
      ]),
      'skill-md-encoding',
    ],
    ['YAML that is not a mapping', Buffer.from('---\n- one\n- two\n---\nbody\n'), 'front-matter-not-mapping'],
    [
      'duplicate keys',
      Buffer.from('---\nname: bad\nname: bad\ndescription: d\n---\n'),
      'front-matter-duplicate-key',
    ],
  ])('rejects %s and imports the rest', async (_label, bytes, rule) => {
    const root = path.join(lib.dir, 'src');
    writeSkill(root, 'fine-skill', skillMd('fine-skill', 'Fine.'));
    writeSkill(root, 'bad', bytes);
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([expect.objectContaining({ relPath: 'bad', file: 'bad/SKILL.md' })]);
    expect(rules(report)).toEqual([rule]);
    expect(names()).toEqual(['fine-skill']);
  });

  it('rejects a zip that is not a zip with a clear error', async () => {
    const fake = path.join(lib.dir, 'fake.zip');
    writeFileSync(fake, 'PK\u0003\u0004 not really');
    await expect(importSource(lib.deps, { path: fake }, testJob())).rejects.toMatchObject({
      code: 'UNSAFE_INPUT',
    });
  });
});
