// Exporting skills as packages: folder, zip and JSON from folder, zip and JSONL sources, with what could not be included.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSkills, safeFolderName, safeRelativePath } from '../../src/core/export/export-skills';
import { importSource } from '../../src/core/skills/index';
import { contentHash } from '../../src/core/skills/package-files';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  writeZip,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let out: string;
const idOf = (name: string): number =>
  lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;

beforeEach(async () => {
  lib = tempLibrary();
  out = path.join(lib.dir, 'out');
  const root = path.join(lib.dir, 'src');
  writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object.'), {
    'scripts/heat.sh': '#!/bin/sh\necho heat\n',
    'references/notes.md': 'Microwave notes.',
    'assets/icon.bin': Buffer.from([0, 1, 2, 255]),
  });
  writeSkill(root, 'put-object', skillMd('put-object', 'Puts an object somewhere.'));
  await importSource(lib.deps, { path: root }, testJob());
  await writeZip(path.join(lib.dir, 'more.zip'), [
    { name: 'pack/cool-object/SKILL.md', content: skillMd('cool-object', 'Cools an object.') },
    { name: 'pack/cool-object/scripts/cool.py', content: 'print("cool")\n' },
  ]);
  await importSource(lib.deps, { path: path.join(lib.dir, 'more.zip') }, testJob());
  writeFileSync(
    path.join(lib.dir, 'dump.jsonl'),
    JSON.stringify({ name: 'slice-object', description: 'Slices an object.', body: 'Use a knife.' }) + '\n',
  );
  await importSource(lib.deps, { path: path.join(lib.dir, 'dump.jsonl') }, testJob());
});
afterEach(() => lib.close());

describe('export', () => {
  it('writes a folder of the original packages, byte for byte', async () => {
    const result = await exportSkills(lib.db, {
      skillIds: [idOf('heat-object'), idOf('cool-object')],
      format: 'folder',
      destination: out,
    });
    expect(result.written.sort()).toEqual([
      'cool-object/SKILL.md',
      'cool-object/scripts/cool.py',
      'heat-object/SKILL.md',
      'heat-object/assets/icon.bin',
      'heat-object/references/notes.md',
      'heat-object/scripts/heat.sh',
    ]);
    expect(result.missing).toEqual([]);
    expect(readFileSync(path.join(out, 'heat-object/assets/icon.bin'))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(readFileSync(path.join(out, 'heat-object/SKILL.md'), 'utf8')).toBe(
      skillMd('heat-object', 'Heats an object.'),
    );
    expect(readFileSync(path.join(out, 'cool-object/scripts/cool.py'), 'utf8')).toBe('print("cool")\n');
  });

  it('says which files could not be included when the source changed, and keeps the kept reference text', async () => {
    writeFileSync(path.join(lib.dir, 'src/heat-object/scripts/heat.sh'), 'changed');
    rmSync(path.join(lib.dir, 'src/heat-object/references/notes.md'));
    rmSync(path.join(lib.dir, 'src/heat-object/assets/icon.bin'));
    const result = await exportSkills(lib.db, {
      skillIds: [idOf('heat-object')],
      format: 'folder',
      destination: out,
    });
    expect(result.missing.map((m) => m.file).sort()).toEqual(['assets/icon.bin', 'scripts/heat.sh']);
    // references/ text is kept in the library, so it survives the deletion.
    expect(readFileSync(path.join(out, 'heat-object/references/notes.md'), 'utf8')).toBe('Microwave notes.');
    expect(existsSync(path.join(out, 'heat-object/scripts/heat.sh'))).toBe(false);
  });

  it('writes a zip and a JSON file; a JSONL skill becomes its SKILL.md', async () => {
    const ids = [idOf('put-object'), idOf('slice-object'), idOf('heat-object')];
    const zip = await exportSkills(lib.db, {
      skillIds: ids,
      format: 'zip',
      destination: path.join(out, 'skills.zip'),
    });
    expect(zip.written).toContain('slice-object/SKILL.md');
    const names: string[] = [];
    const z = await yauzl.openPromise(path.join(out, 'skills.zip'), { lazyEntries: true });
    await new Promise<void>((resolve, reject) => {
      z.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        z.readEntry();
      });
      z.on('end', resolve).on('error', reject);
      z.readEntry();
    });
    z.close();
    expect(names.sort()).toEqual([...zip.written].sort());

    const json = await exportSkills(lib.db, {
      skillIds: ids,
      format: 'json',
      destination: path.join(out, 'skills.json'),
    });
    const doc = JSON.parse(readFileSync(json.destination, 'utf8')) as {
      skills: { folder: string; files: { path: string; encoding: string; content: string }[] }[];
    };
    const heat = doc.skills.find((s) => s.folder === 'heat-object')!;
    expect(heat.files.find((f) => f.path === 'assets/icon.bin')).toEqual({
      path: 'assets/icon.bin',
      encoding: 'base64',
      content: 'AAEC/w==',
    });
    expect(doc.skills.find((s) => s.folder === 'slice-object')!.files.map((f) => f.path)).toEqual([
      'SKILL.md',
    ]);
  });

  it('never overwrites: an existing file or a non-empty folder is a conflict, and unknown ids are an error', async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'keep.txt'), 'mine');
    await expect(
      exportSkills(lib.db, { skillIds: [idOf('put-object')], format: 'folder', destination: out }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      exportSkills(lib.db, {
        skillIds: [idOf('put-object')],
        format: 'zip',
        destination: path.join(out, 'keep.txt'),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(readFileSync(path.join(out, 'keep.txt'), 'utf8')).toBe('mine');
    await expect(
      exportSkills(lib.db, { skillIds: [99999], format: 'json', destination: path.join(out, 'x.json') }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('only writes safe names', () => {
    expect(safeFolderName('Heat Object!')).toBe('heat-object');
    expect(safeFolderName('con')).toBe('skill-con');
    expect(safeFolderName('../..')).toBe('skill-unnamed');
    for (const bad of ['../x', '/etc/passwd', 'a\\b', 'C:/x', 'a/../b', 'nul.txt', 'a/b ', 'x\u0001y'])
      expect(safeRelativePath(bad)).toBe(false);
    expect(safeRelativePath('scripts/run.sh')).toBe(true);
  });
});

describe('export of real-world packages (issue 9)', () => {
  const filesUnder = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
      .sort();

  it('writes every file of a skill whose zip also holds a refused entry', async () => {
    const zip = path.join(lib.dir, 'mixed.zip');
    await writeZip(zip, [
      { name: '../evil/SKILL.md', content: skillMd('evil', 'Climbs out.') },
      { name: 'good-skill/SKILL.md', content: skillMd('good-skill', 'Has scripts and assets.') },
      { name: 'good-skill/scripts/run.sh', content: '#!/bin/sh\necho run\n' },
      { name: 'good-skill/assets/logo.bin', content: Buffer.from([0, 255, 1, 254]) },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.added.map((a) => a.name)).toEqual(['good-skill']);
    const result = await exportSkills(lib.db, {
      skillIds: [idOf('good-skill')],
      format: 'folder',
      destination: out,
    });
    expect(result.missing).toEqual([]);
    expect(filesUnder(out)).toEqual([
      'good-skill/SKILL.md',
      'good-skill/assets/logo.bin',
      'good-skill/scripts/run.sh',
    ]);
    expect(readFileSync(path.join(out, 'good-skill/assets/logo.bin'))).toEqual(Buffer.from([0, 255, 1, 254]));
  });

  it('lists a file that clashes with a folder, or an NFC/NFD twin, writes the rest and leaves no partial folder', async () => {
    const cafeNfc = 'references/caf\u00e9.md';
    const cafeNfd = 'references/cafe\u0301.md';
    // Imports refuse such a zip now (zip-name-collision), but a library imported by an earlier build can hold one:
    // import its clean part, then write the rows that build wrote for the clashing files and put the zip in place.
    const zip = path.join(lib.dir, 'clash.zip');
    const md = skillMd('clash-skill', 'Odd names.');
    const clean = [
      { name: 'clash-skill/SKILL.md', content: md },
      { name: 'clash-skill/scripts/ok.sh', content: 'echo ok' },
    ];
    const clashing = [
      { name: 'clash-skill/notes', content: 'a file called notes' },
      { name: 'clash-skill/notes/x.md', content: 'a file inside a folder called notes' },
      { name: `clash-skill/${cafeNfc}`, content: 'composed' },
      { name: `clash-skill/${cafeNfd}`, content: 'decomposed' },
    ];
    await writeZip(zip, clean);
    expect((await importSource(lib.deps, { path: zip }, testJob())).added).toHaveLength(1);
    await writeZip(zip, [...clean, ...clashing]);
    const id = idOf('clash-skill');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const insert = lib.db.prepare(
      "INSERT INTO skill_files (skill_id, path, kind, size, sha256, is_text, text_content) VALUES (?, ?, 'other', ?, ?, 1, NULL)",
    );
    for (const f of clashing)
      insert.run(id, f.name.slice('clash-skill/'.length), Buffer.byteLength(f.content), sha(f.content));
    const files = lib.db.prepare('SELECT path, sha256 FROM skill_files WHERE skill_id = ?').all(id) as {
      path: string;
      sha256: string;
    }[];
    lib.db.prepare('UPDATE skills SET content_hash = ? WHERE id = ?').run(contentHash(md, files), id);
    mkdirSync(out); // an empty folder the user chose
    const result = await exportSkills(lib.db, {
      skillIds: [idOf('clash-skill')],
      format: 'folder',
      destination: out,
    });
    expect(result.missing.map((m) => [m.file, m.reason])).toEqual([
      ['notes/x.md', expect.stringContaining('"notes" is a file')],
      [cafeNfc, expect.stringContaining('Unicode-normalised')],
    ]);
    expect(filesUnder(out)).toEqual(
      [
        'clash-skill/SKILL.md',
        'clash-skill/notes',
        `clash-skill/${cafeNfd}`,
        'clash-skill/scripts/ok.sh',
      ].sort(),
    );
    expect([...result.written].sort()).toEqual(filesUnder(out));
    // Only the finished folder is left beside it.
    expect(readdirSync(lib.dir).filter((n) => n.includes('partial'))).toEqual([]);

    const zipOut = await exportSkills(lib.db, {
      skillIds: [idOf('clash-skill')],
      format: 'zip',
      destination: path.join(lib.dir, 'clash-out.zip'),
    });
    expect(zipOut.missing.map((m) => m.file)).toEqual(['notes/x.md', cafeNfc]);
  });

  it('keeps the byte-order mark of SKILL.md, from the source or from the library alone', async () => {
    const text = `\uFEFF${skillMd('bom-skill', 'Written by an editor that adds a BOM.')}`;
    const root = path.join(lib.dir, 'bom');
    writeSkill(root, 'bom-skill', text, { 'scripts/x.sh': 'echo x' });
    await importSource(lib.deps, { path: root }, testJob());
    rmSync(root, { recursive: true }); // the library alone must still know the exact bytes
    const result = await exportSkills(lib.db, {
      skillIds: [idOf('bom-skill')],
      format: 'folder',
      destination: out,
    });
    expect(readFileSync(path.join(out, 'bom-skill/SKILL.md'))).toEqual(Buffer.from(text, 'utf8'));
    expect(result.missing.map((m) => m.file)).toEqual(['scripts/x.sh']);
  });
});
