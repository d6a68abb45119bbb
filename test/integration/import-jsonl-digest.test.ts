// Re-importing a JSONL dump skips the lines whose text is unchanged without parsing them, and still reports what a
// full import would: unchanged skills, their warnings at the line they are on now, and the lines that changed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSource } from '../../src/core/skills/importer';
import { tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let fresh: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
  fresh = tempLibrary();
});
afterEach(() => {
  lib.close();
  fresh.close();
});

const line = (name: string, extra: object = {}) =>
  JSON.stringify({ name, description: `About ${name}.`, body: `# ${name}\n\nSteps.\n`, ...extra });

describe('JSONL re-import by line digest', () => {
  it('reports unchanged skills with their warnings at their new lines, as a fresh import would', async () => {
    const dump = path.join(lib.dir, 'dump.jsonl');
    writeFileSync(
      dump,
      [line('plain-one'), line('odd-keys', { colour: 'red' }), line('plain-two')].join('\n'),
    );
    const first = await importSource(lib.deps, { path: dump }, testJob());
    expect(first.warnings.map((w) => [w.name, w.issues[0]!.line])).toEqual([['odd-keys', 2]]);
    // Two lines come before it now; its own text is unchanged.
    writeFileSync(
      dump,
      [line('new-one'), '', line('plain-one'), line('odd-keys', { colour: 'red' }), line('plain-two')].join(
        '\n',
      ),
    );
    const again = await importSource(lib.deps, { path: dump }, testJob());
    expect(again.added.map((s) => s.name)).toEqual(['new-one']);
    expect(again.unchanged.map((s) => s.name)).toEqual(['plain-one', 'odd-keys', 'plain-two']);
    const full = await importSource(fresh.deps, { path: dump }, testJob());
    expect(again.warnings).toEqual(full.warnings);
    expect(again.warnings[0]!.issues[0]!.line).toBe(4);
  });

  it('parses and updates a line whose text changed', async () => {
    const dump = path.join(lib.dir, 'dump.jsonl');
    writeFileSync(dump, [line('alpha'), line('beta')].join('\n'));
    await importSource(lib.deps, { path: dump }, testJob());
    writeFileSync(dump, [line('alpha', { description: 'Changed.' }), line('beta')].join('\n'));
    const again = await importSource(lib.deps, { path: dump }, testJob());
    expect(again.updated.map((s) => s.name)).toEqual(['alpha']);
    expect(again.unchanged.map((s) => s.name)).toEqual(['beta']);
    const row = lib.db.prepare("SELECT description FROM skills WHERE name = 'alpha'").pluck().get();
    expect(row).toBe('Changed.');
  });

  it('finds each unchanged line its place without reading it, the same places a fresh import gives', async () => {
    const dump = path.join(lib.dir, 'dump.jsonl');
    const places = (l: TempLibrary) =>
      l.db.prepare('SELECT rel_path AS place, content_hash AS hash FROM skills ORDER BY rel_path').all();
    const delta = line('delta', { path: 'p' });
    writeFileSync(
      dump,
      [line('alpha'), delta, line('epsilon', { path: 'p' }), line('gamma', { path: 'g/x' })].join('\n'),
    );
    const first = await importSource(lib.deps, { path: dump }, testJob());
    expect(first.added.map((s) => s.relPath)).toEqual(['alpha', 'p', 'p#3', 'g/x']);
    // Lines moved; a changed line takes the place "p" first, so the unchanged delta line goes to "p#<its line>";
    // an unchanged line appears twice.
    writeFileSync(
      dump,
      [
        line('delta', { path: 'p', colour: 'b' }),
        line('gamma', { path: 'g/x' }),
        line('alpha'),
        delta,
        line('alpha'),
      ].join('\n'),
    );
    const again = await importSource(lib.deps, { path: dump }, testJob());
    const full = await importSource(fresh.deps, { path: dump }, testJob());
    expect(places(lib)).toEqual(places(fresh));
    expect(again.unchanged.map((s) => s.relPath)).toEqual(['g/x', 'alpha']);
    expect(again.conflicts.map((s) => s.relPath)).toEqual(['p#4']);
    expect(full.conflicts.map((s) => s.relPath)).toEqual(['p#4']);
    expect(again.duplicates.map((s) => s.relPath)).toEqual(full.duplicates.map((s) => s.relPath));
    expect(again.duplicates.map((s) => s.relPath)).toEqual(['alpha#5']);
  });
});
