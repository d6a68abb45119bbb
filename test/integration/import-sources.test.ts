// Each import source (folder, zip, single SKILL.md, JSONL dump) lands in a real SQLite library with files and search text.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSkill, importSource, listSkills, listSources, searchKeyword } from '../../src/core/skills/index';
import {
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

describe('import sources', () => {
  it('imports every SKILL.md below a folder with its package files classified and hashed', async () => {
    const root = path.join(lib.dir, 'src');
    writeSkill(root, 'kitchen/heat-food', skillMd('heat-food', 'Heat food in the microwave.'), {
      'scripts/run.sh': 'echo heat\n',
      'references/guide.md': 'Use the zanzibar setting for soup.\n',
      'assets/icon.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
      'notes.txt': 'misc',
    });
    writeSkill(root, 'garden/water-plants', skillMd('water-plants', 'Water the plants.'));
    writeSkill(root, 'node_modules/ignored', skillMd('ignored', 'Never imported.'));
    mkdirSync(path.join(root, 'empty-folder'));

    const job = testJob();
    const report = await importSource(lib.deps, { path: root }, job);
    expect(report.kind).toBe('folder');
    expect(report.added.map((s) => s.name).sort()).toEqual(['heat-food', 'water-plants']);
    expect(report.rejected).toEqual([]);
    expect(job.progress.at(-1)).toMatchObject({ done: 2, total: 2 });

    const heat = listSkills(lib.db, {}).items.find((s) => s.name === 'heat-food')!;
    const detail = getSkill(lib.db, heat.id);
    expect(detail.relPath).toBe('kitchen/heat-food');
    expect(detail.files.map((f) => [f.path, f.kind, f.isText])).toEqual([
      ['assets/icon.png', 'asset', false],
      ['notes.txt', 'other', true],
      ['references/guide.md', 'reference', true],
      ['scripts/run.sh', 'script', true],
    ]);
    expect(detail.files.find((f) => f.kind === 'script')!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.files.find((f) => f.kind === 'reference')!.textContent).toContain('zanzibar');
    // Reference text is searchable.
    expect(searchKeyword(lib.db, { query: 'zanzibar' }).hits.map((h) => h.skill.name)).toEqual(['heat-food']);
  });

  it('imports a zip of a skill tree', async () => {
    const zip = path.join(lib.dir, 'pack.zip');
    await writeZip(zip, [
      { name: 'pack/heat-food/SKILL.md', content: skillMd('heat-food', 'Heat food.') },
      { name: 'pack/heat-food/references/r.md', content: 'reference words' },
      { name: 'pack/cool-food/SKILL.md', content: skillMd('cool-food', 'Cool food.') },
      { name: 'README.md', content: 'not a skill' },
    ]);
    const report = await importSource(lib.deps, { path: zip }, testJob());
    expect(report.kind).toBe('zip');
    expect(report.added.map((s) => s.relPath).sort()).toEqual(['pack/cool-food', 'pack/heat-food']);
    const heat = listSkills(lib.db).items.find((s) => s.name === 'heat-food')!;
    expect(getSkill(lib.db, heat.id).files.map((f) => f.path)).toEqual(['references/r.md']);
  });

  it('imports a single SKILL.md, named after its folder', async () => {
    const dir = writeSkill(lib.dir, 'solo-skill', skillMd('solo-skill', 'On its own.'), {
      'references/x.md': 'not read',
    });
    const report = await importSource(lib.deps, { path: path.join(dir, 'SKILL.md') }, testJob());
    expect(report.kind).toBe('file');
    expect(report.added).toEqual([{ name: 'solo-skill', relPath: '' }]);
    expect(getSkill(lib.db, listSkills(lib.db).items[0]!.id).files).toEqual([]);
  });

  it('imports a JSONL dump and rejects bad lines with their line numbers', async () => {
    const dump = path.join(lib.dir, 'dump.jsonl');
    const lines = [
      JSON.stringify({
        name: 'open-door',
        description: 'Open a door.',
        body: 'Pull the handle.',
        license: 'MIT',
      }),
      '{not json',
      JSON.stringify({ name: 'Bad Name', description: 'x', body: 'y' }),
      '',
      JSON.stringify(['a list']),
      JSON.stringify({
        name: 'close-door',
        description: 'Close a door.',
        body: 'Push.',
        files: [{ path: 'references/r.md', content: 'hinge' }],
      }),
      JSON.stringify({ name: 'no-body', description: 'x' }),
    ];
    const badUtf8 = Buffer.concat([
      Buffer.from('{"name": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('", "description": "x", "body": "y"}'),
    ]);
    writeFileSync(dump, Buffer.concat([Buffer.from(lines.join('\n') + '\n'), badUtf8, Buffer.from('\n')]));
    const report = await importSource(lib.deps, { path: dump }, testJob());
    expect(report.kind).toBe('jsonl');
    expect(report.added.map((s) => s.name)).toEqual(['open-door', 'close-door']);
    expect(report.rejected.map((r) => [r.issues[0]!.line, r.issues[0]!.rule])).toEqual([
      [2, 'jsonl-syntax'],
      [3, 'name-format'],
      [5, 'jsonl-not-object'],
      [7, 'jsonl-body-required'],
      [8, 'jsonl-encoding'],
    ]);
    // Where each problem is, as the report screen and the CLI write it (file, then line): the line once.
    const base = path.basename(dump);
    expect(report.rejected.map((r) => `${r.issues[0]!.file}:${r.issues[0]!.line}`)).toEqual(
      [2, 3, 5, 7, 8].map((n) => `${base}:${n}`),
    );
    const open = getSkill(lib.db, listSkills(lib.db).items.find((s) => s.name === 'open-door')!.id);
    expect(open.body).toBe('Pull the handle.');
    expect(open.frontMatter).toEqual({ name: 'open-door', description: 'Open a door.', license: 'MIT' });
    expect(searchKeyword(lib.db, { query: 'hinge' }).hits.map((h) => h.skill.name)).toEqual(['close-door']);
  });

  it('says clearly when there is nothing at the path, or the wrong thing, and records no source', async () => {
    const missing = path.join(lib.dir, 'missing');
    await expect(importSource(lib.deps, { path: missing }, testJob())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(importSource(lib.deps, { path: missing, kind: 'zip' }, testJob())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(importSource(lib.deps, { path: lib.dir, kind: 'jsonl' }, testJob())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const badChoice = { path: lib.dir, onConflict: 'merge' as never };
    await expect(importSource(lib.deps, badChoice, testJob())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(listSources(lib.db)).toEqual([]);
  });

  it('keeps a source label given once through later imports without one', async () => {
    const root = path.join(lib.dir, 'labelled');
    writeSkill(root, 'one-skill', skillMd('one-skill', 'One.'));
    await importSource(lib.deps, { path: root, label: 'My skills' }, testJob());
    await importSource(lib.deps, { path: root }, testJob());
    expect(listSources(lib.db).map((s) => s.label)).toEqual(['My skills']);
  });
});
