// Hostile or odd content inside skills (issue 9): Windows line ends, one skill that cannot be stored, front matter
// built to be slow or to expand, and files that are not what the importer was told they are. Each describe names the
// class of fault; each case failed on the code before the fix.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSkills } from '../../src/core/export/export-skills';
import { importLabelFile } from '../../src/core/eval/label-store';
import { importSource, latestImportReport, listSkills } from '../../src/core/skills/index';
import { importStatesFile } from '../../src/core/states/import-states';
import type { ImportReport } from '../../src/core/skills/types';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

const rules = (r: ImportReport) => r.rejected.flatMap((x) => x.issues.map((i) => i.rule));
const names = () =>
  listSkills(lib.db)
    .items.map((s) => s.name)
    .sort();
const row = (name: string) =>
  lib.db.prepare('SELECT id, name, description, front_matter, body FROM skills WHERE name = ?').get(name) as {
    id: number;
    name: string;
    description: string;
    front_matter: string;
    body: string;
  };

describe('class: line endings', () => {
  const crlf = (s: string) => s.replace(/\n/g, '\r\n');
  const texts: Record<string, string> = {
    // The value written last keeps the CR of its line when only the fences are trimmed.
    'quoted-last': crlf(
      '---\nname: quoted-last\ndescription: "Quoted, written last."\n---\n\n# Quoted\n\nStep one.\n',
    ),
    'name-last': crlf('---\ndescription: The name comes last.\nname: name-last\n---\n\nBody line.\n'),
    'plain-last': crlf('---\nname: plain-last\ndescription: A plain description written last\n---\nBody.\n'),
    // Classic Mac OS line ends: a lone CR.
    'mac-ends': '---\rname: mac-ends\rdescription: Lone CR line ends.\r---\r\rBody.\r',
  };

  it('reads CRLF and CR front matter without the CR, and exports each SKILL.md byte for byte', async () => {
    const root = path.join(lib.dir, 'windows');
    for (const [name, text] of Object.entries(texts)) writeSkill(root, name, text);
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([]);
    expect(names()).toEqual(['mac-ends', 'name-last', 'plain-last', 'quoted-last']);
    expect(row('quoted-last').description).toBe('Quoted, written last.');
    expect(row('plain-last').description).toBe('A plain description written last');
    expect(row('name-last').name).toBe('name-last');
    for (const name of Object.keys(texts)) {
      const stored = row(name);
      expect(stored.description).not.toMatch(/\r/);
      expect(stored.front_matter).not.toMatch(/\\r/);
    }
    // The body keeps its own line ends.
    expect(row('quoted-last').body).toBe('# Quoted\r\n\r\nStep one.\r\n');

    const out = path.join(lib.dir, 'out');
    const ids = Object.keys(texts).map((n) => row(n).id);
    const result = await exportSkills(lib.db, { skillIds: ids, format: 'folder', destination: out });
    expect(result.missing).toEqual([]);
    for (const [name, text] of Object.entries(texts))
      expect(readFileSync(path.join(out, name, 'SKILL.md'))).toEqual(Buffer.from(text, 'utf8'));
  });
});

describe('class: one skill fails, the import goes on', () => {
  it('rejects a JSONL line whose files name one path twice, imports the lines after it and stores the report', async () => {
    const dump = path.join(lib.dir, 'dump.jsonl');
    const line = (name: string, files?: unknown) =>
      JSON.stringify({
        name,
        description: `About ${name}.`,
        body: `Do ${name}.`,
        ...(files ? { files } : {}),
      });
    writeFileSync(
      dump,
      [
        line('first-skill'),
        line('twice-skill', [
          { path: 'scripts/run.sh', content: 'echo one' },
          { path: 'scripts/run.sh', content: 'echo two' },
        ]),
        line('self-skill', [{ path: 'SKILL.md', content: 'a second SKILL.md' }]),
        line('last-skill', [{ path: 'references/a.md', content: 'A' }]),
      ].join('\n') + '\n',
    );
    const report = await importSource(lib.deps, { path: dump }, testJob());
    expect(report.added.map((a) => a.name)).toEqual(['first-skill', 'last-skill']);
    expect(report.rejected.map((r) => [r.file, r.issues[0]!.rule])).toEqual([
      ['dump.jsonl:2', 'jsonl-files-duplicate'],
      ['dump.jsonl:3', 'jsonl-files-duplicate'],
    ]);
    expect(report.rejected[0]!.issues[0]!.message).toContain('scripts/run.sh');
    expect(latestImportReport(lib.db, report.sourceId)).toEqual(report);
  });

  it('rejects a skill the library cannot store (any SQLite error) with a rule, and goes on to the next one', async () => {
    // A real constraint in the real library file stands for whatever may fail while one skill is written.
    lib.db.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON skills WHEN NEW.name = 'b-refused'
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
    const root = path.join(lib.dir, 'three');
    for (const n of ['a-first', 'b-refused', 'c-last']) writeSkill(root, n, skillMd(n, `About ${n}.`));
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(names()).toEqual(['a-first', 'c-last']);
    expect(report.rejected).toEqual([
      {
        relPath: 'b-refused',
        file: 'b-refused/SKILL.md',
        issues: [
          expect.objectContaining({ rule: 'store-failed', message: expect.stringContaining('refused') }),
        ],
      },
    ]);
    expect(latestImportReport(lib.db, report.sourceId)).toEqual(report);
    // Nothing half-written: the refused skill left no package files or search rows behind.
    expect(lib.db.prepare('SELECT count(*) FROM skill_files').pluck().get()).toBe(0);
  });

  it('a states import reports a line that cannot be applied and applies the lines after it', async () => {
    const root = path.join(lib.dir, 'for-states');
    for (const n of ['a-first', 'b-refused', 'c-last']) writeSkill(root, n, skillMd(n, `About ${n}.`));
    await importSource(lib.deps, { path: root }, testJob());
    const refusedId = row('b-refused').id;
    lib.db.exec(`CREATE TRIGGER refuse_states BEFORE INSERT ON skill_states WHEN NEW.skill_id = ${refusedId}
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
    const file = path.join(lib.dir, 'states.jsonl');
    writeFileSync(
      file,
      ['a-first', 'b-refused', 'c-last']
        .map((name) => JSON.stringify({ name, precondition: null, completion: `${name} is done` }))
        .join('\n'),
    );
    const result = await importStatesFile(lib.db, lib.deps.clock, { path: file });
    expect(result.applied).toBe(2);
    expect(result.errors).toEqual([{ line: 2, message: expect.stringContaining('refused') }]);
    const completion = (name: string) =>
      lib.db.prepare('SELECT completion FROM skill_states WHERE skill_id = ?').pluck().get(row(name).id);
    expect(completion('c-last')).toBe('c-last is done');
  });

  it('stores a report saying why when the source itself cannot be read', async () => {
    const fake = path.join(lib.dir, 'not-a.zip');
    writeFileSync(fake, 'PK\u0003\u0004 this is not really a zip');
    await expect(importSource(lib.deps, { path: fake }, testJob())).rejects.toMatchObject({
      code: 'UNSAFE_INPUT',
    });
    const id = lib.db.prepare('SELECT id FROM sources').pluck().get() as number;
    expect(rules(latestImportReport(lib.db, id)!)).toEqual(['source-unreadable']);
  });
});

describe('class: slow or huge front matter', () => {
  it('rejects a 990 KB front matter of keys at once, and imports the skill beside it', async () => {
    const root = path.join(lib.dir, 'big');
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}: v`).join('\n');
    writeSkill(root, 'many-keys', `---\nname: many-keys\ndescription: d\n${keys}\n---\nBody\n`);
    writeSkill(root, 'fine-skill', skillMd('fine-skill', 'Still imported.'));
    expect(readFileSync(path.join(root, 'many-keys/SKILL.md')).length).toBeGreaterThan(900_000);
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(rules(report)).toEqual(['front-matter-too-large']);
    expect(names()).toEqual(['fine-skill']);
  });

  it('rejects front matter whose aliases expand past the bound, though each alias is allowed', async () => {
    const root = path.join(lib.dir, 'aliases');
    const anchor = 'x'.repeat(20_000);
    const aliases = Array.from({ length: 99 }, (_, i) => `a${i}: *big`).join('\n');
    writeSkill(
      root,
      'aliased',
      `---\nname: aliased\ndescription: d\nbig: &big ${anchor}\n${aliases}\n---\nBody\n`,
    );
    writeSkill(
      root,
      'few-aliases',
      `---\nname: few-aliases\ndescription: &d Short.\nmetadata:\n  again: *d\n---\nBody\n`,
    );
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(rules(report)).toEqual(['front-matter-too-large']);
    expect(names()).toEqual(['few-aliases']);
    expect(JSON.parse(row('few-aliases').front_matter)).toEqual({
      name: 'few-aliases',
      description: 'Short.',
      metadata: { again: 'Short.' },
    });
  });

  it('bounds a JSONL line of two megabytes of keys the same way', async () => {
    const dump = path.join(lib.dir, 'keys.jsonl');
    const obj: Record<string, string> = { name: 'wide-line', description: 'd', body: 'b' };
    for (let i = 0; i < 100_000; i++) obj[`k${i}`] = 'v';
    writeFileSync(dump, JSON.stringify(obj) + '\n');
    const report = await importSource(lib.deps, { path: dump }, testJob());
    expect(rules(report)).toEqual(['front-matter-too-large']);
  });

  it('still finds duplicate keys, nested ones included, with the line', async () => {
    const root = path.join(lib.dir, 'dups');
    writeSkill(
      root,
      'dup-nested',
      '---\nname: dup-nested\ndescription: d\nmetadata:\n  a: 1\n  a: 2\n---\nB\n',
    );
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected[0]!.issues).toEqual([
      expect.objectContaining({ rule: 'front-matter-duplicate-key', line: 6 }),
    ]);
  });
});

describe('class: error messages that echo a file', () => {
  // Stands for /etc/shadow: lines a host may be pointed at, none of which may come back in an error.
  const secretLines = [
    'root:$6$Zq9sEcReT$hashhashhashhash:19000:0:99999:7:::',
    'daemon:*:19000:0:99999:7:::',
    '{"apiKey": "sk-secret-value-0123456789"',
  ];
  const leaked = (text: string) =>
    ['root:', 'Zq9s', 'daemon', 'sk-secret', 'hashhash'].filter((s) => text.includes(s));

  it('a labels import of a non-label file says which lines are bad, quoting none of them', async () => {
    const file = path.join(lib.dir, 'shadow');
    writeFileSync(file, secretLines.join('\n') + '\n{"id":"x","task":"t","gold":["g"],"root:Zq9s":1}\n');
    const error = await importLabelFile(lib.db, { path: file }, new Date()).catch((e: unknown) => e);
    const shown = JSON.stringify({
      message: (error as Error).message,
      details: (error as { details: unknown }).details,
    });
    expect((error as { code: string }).code).toBe('VALIDATION_FAILED');
    expect(shown).toContain('"line":1');
    expect(shown).toContain('"line":4');
    expect(leaked(shown)).toEqual([]);
  });

  it('a front matter alias error names no alias from the file', async () => {
    const root = path.join(lib.dir, 'alias-err');
    writeSkill(root, 'bad-alias', '---\nname: bad-alias\ndescription: *s3cretAnchorName\n---\nB\n');
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(rules(report)).toEqual(['front-matter-yaml']);
    expect(JSON.stringify(report)).not.toContain('s3cret');
  });

  it('a states import refuses what is not a regular file before opening it (a FIFO would never end)', async () => {
    const fifo = path.join(lib.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(importStatesFile(lib.db, lib.deps.clock, { path: lib.dir })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(importStatesFile(lib.db, lib.deps.clock, { path: fifo })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a states import and a JSONL skill source do not quote the file either', async () => {
    const file = path.join(lib.dir, 'shadow.jsonl');
    writeFileSync(file, secretLines.join('\n') + '\n');
    const states = await importStatesFile(lib.db, lib.deps.clock, { path: file });
    expect(states.errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(leaked(JSON.stringify(states))).toEqual([]);

    const report = await importSource(lib.deps, { path: file }, testJob());
    expect(rules(report)).toEqual(['jsonl-syntax', 'jsonl-syntax', 'jsonl-syntax']);
    expect(report.rejected[2]!.issues[0]!.message).toMatch(/^line 3 is not valid JSON \(at column \d+\)$/);
    expect(leaked(JSON.stringify(report))).toEqual([]);
  });
});
