// Zips whose entry names do not single out one file: real archives written with yazl (names patched where yazl would
// rewrite them), read by the real importer into a real SQLite library. An ambiguous skill is refused, never half-guessed.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource, listSkills, searchKeyword } from '../../src/core/skills/index';
import type { ImportReport } from '../../src/core/skills/types';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeZip,
  type TempLibrary,
  type ZipEntrySpec,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

const good: ZipEntrySpec = { name: 'fine-skill/SKILL.md', content: skillMd('fine-skill', 'Still imported.') };
const names = () =>
  listSkills(lib.db)
    .items.map((s) => s.name)
    .sort();
const rejectedAs = (r: ImportReport) =>
  Object.fromEntries(r.rejected.map((x) => [x.relPath, x.issues.map((i) => [i.rule, i.file])]));

async function importZip(entries: ZipEntrySpec[]): Promise<ImportReport> {
  const zip = path.join(lib.dir, 'pkg.zip');
  await writeZip(zip, [good, ...entries]);
  return importSource(lib.deps, { path: zip }, testJob());
}

describe('class: ambiguous zip entries', () => {
  it('refuses a skill whose zip holds the same entry twice with different content', async () => {
    const report = await importZip([
      { name: 'dup/SKILL.md', content: skillMd('dup', 'Which one?') },
      { name: 'dup/references/notes.md', content: 'first-copy-marker' },
      { name: 'dup/references/notes.md', content: 'second-copy-marker' },
    ]);
    expect(rejectedAs(report)).toEqual({ dup: [['zip-duplicate-entry', 'dup/references/notes.md']] });
    expect(report.rejected[0]!.issues[0]!.message).toContain('2 times with different content');
    expect(names()).toEqual(['fine-skill']);
    expect(searchKeyword(lib.db, { query: 'first-copy-marker' }).total).toBe(0);
  });

  it('refuses a SKILL.md written twice, even under two spellings ("./", "//", a backslash)', async () => {
    const report = await importZip([
      { name: 'two/SKILL.md', content: skillMd('two', 'First.') },
      { name: './two/SKILL.md', content: skillMd('two', 'Second.') },
      { name: 'bsl/SKILL.md', content: skillMd('bsl', 'Slash.') },
      { name: 'bsl/SKILL.mX', rawName: 'bsl\\SKILL.md', content: skillMd('bsl', 'Backslash.') },
      { name: 'dbl/SKILL.md', content: skillMd('dbl', 'One slash.') },
      { name: 'dbl//SKILL.md', content: skillMd('dbl', 'Two slashes.') },
    ]);
    expect(rejectedAs(report)).toEqual({
      bsl: [['zip-duplicate-entry', 'bsl/SKILL.md']],
      dbl: [['zip-duplicate-entry', 'dbl/SKILL.md']],
      two: [['zip-duplicate-entry', 'two/SKILL.md']],
    });
    expect(report.rejected.find((r) => r.relPath === 'two')!.issues[0]!.message).toContain(
      '(as "two/SKILL.md", "./two/SKILL.md")',
    );
    expect(names()).toEqual(['fine-skill']);
  });

  it('refuses names that differ only by case or Unicode form (one file on macOS and Windows)', async () => {
    const nfc = 'caf\u00e9.md';
    const nfd = 'cafe\u0301.md';
    const report = await importZip([
      { name: 'cased/SKILL.md', content: skillMd('cased', 'Case twins.') },
      { name: 'cased/references/Notes.md', content: 'upper' },
      { name: 'cased/references/notes.md', content: 'lower' },
      { name: 'uni/SKILL.md', content: skillMd('uni', 'Unicode twins.') },
      { name: `uni/references/${nfc}`, content: 'composed' },
      { name: `uni/references/${nfd}`, content: 'decomposed' },
      { name: 'dirs/SKILL.md', content: skillMd('dirs', 'Folder case twins.') },
      { name: 'dirs/Scripts/a.sh', content: 'a' },
      { name: 'dirs/scripts/b.sh', content: 'b' },
      // Twins beside the skills are not imported, so not reported; one "./" spelling alone is no twin.
      { name: 'README.md', content: 'one' },
      { name: 'readme.md', content: 'two' },
      { name: './solo/SKILL.md', content: skillMd('solo', 'Only spelled with ./') },
    ]);
    expect(rejectedAs(report)).toEqual({
      cased: [
        ['zip-name-collision', 'cased/references/Notes.md'],
        ['zip-name-collision', 'cased/references/notes.md'],
      ],
      dirs: [
        ['zip-name-collision', 'dirs/Scripts/a.sh'],
        ['zip-name-collision', 'dirs/scripts/b.sh'],
      ],
      uni: [
        ['zip-name-collision', `uni/references/${nfc}`],
        ['zip-name-collision', `uni/references/${nfd}`],
      ],
    });
    expect(names()).toEqual(['fine-skill', 'solo']);
  });

  it('refuses a name that is both a file and a folder', async () => {
    const report = await importZip([
      { name: 'both/SKILL.md', content: skillMd('both', 'File and folder.') },
      { name: 'both/references', content: 'a file' },
      { name: 'both/references/x.md', content: 'inside the folder' },
    ]);
    expect(rejectedAs(report)).toEqual({
      both: [
        ['zip-name-collision', 'both/references'],
        ['zip-name-collision', 'both/references/x.md'],
      ],
    });
    expect(report.rejected[0]!.issues[0]!.message).toContain('"both/references" is both a file and a folder');
    expect(names()).toEqual(['fine-skill']);
  });
});
