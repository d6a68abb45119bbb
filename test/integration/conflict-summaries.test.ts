// A list of conflicts reads each incoming skill's summary from columns of its own (migration 008): the same figures as
// the conflict read whole, for rows the import writes, rows a re-import rewrites, and rows an older library holds.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getConflict, importSource, listConflicts } from '../../src/core/skills/index';
import { openDb } from '../../src/core/store/db';
import { registerTextFunctions } from '../../src/core/store/text-packing';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let first: string;
let second: string;
beforeEach(async () => {
  lib = tempLibrary();
  first = path.join(lib.dir, 'first');
  second = path.join(lib.dir, 'second');
  writeSkill(first, 'heat-food', skillMd('heat-food', 'Heat food in a microwave.', 'Use the microwave.\n'));
  writeSkill(first, 'boil-water', skillMd('boil-water', 'Boil water in a kettle.', 'Fill the kettle.\n'));
  writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food on a stove.', 'Use the stove.\n'), {
    'scripts/light.sh': 'echo light\n',
  });
  // A key the specification does not have gives the incoming skill a warning to list.
  writeSkill(
    second,
    'boil-water',
    '---\nname: boil-water\ndescription: Boil water on a stove.\ncolour: blue\n---\nWait.\n',
  );
  await importSource(lib.deps, { path: first }, testJob());
});
afterEach(() => lib.close());

/** What the list shows of a conflict, next to the same conflict read whole (its body left out). */
function listedAndWhole(db = lib.db) {
  return listConflicts(db, { pendingOnly: false }).map((listed) => {
    const { incoming, ...whole } = getConflict(db, listed.id);
    const { body: _body, ...incomingWithoutBody } = incoming;
    return { listed, whole: { ...whole, incoming: incomingWithoutBody } };
  });
}

describe('conflict summaries', () => {
  it('list what the whole conflict says, for conflicts an import records and a re-import rewrites', async () => {
    await importSource(lib.deps, { path: second, onConflict: 'record' }, testJob());
    const pairs = listedAndWhole();
    expect(pairs).toHaveLength(2);
    for (const { listed, whole } of pairs) expect(listed).toEqual(whole);
    const heat = pairs.find((p) => p.listed.name === 'heat-food')!.listed;
    expect(heat.incoming).toMatchObject({ description: 'Heat food on a stove.', fileCount: 1 });
    expect(heat.existing).toMatchObject({ name: 'heat-food', description: 'Heat food in a microwave.' });
    const boil = pairs.find((p) => p.listed.name === 'boil-water')!.listed;
    expect(boil.incoming.warnings.length).toBeGreaterThan(0);

    // The second source changes: the re-import asks again about the new content, and the list says so.
    writeSkill(second, 'heat-food', skillMd('heat-food', 'Heat food over a fire.', 'Light a fire.\n'));
    await importSource(lib.deps, { path: second, onConflict: 'record' }, testJob());
    const again = listedAndWhole();
    for (const { listed, whole } of again) expect(listed).toEqual(whole);
    expect(again.find((p) => p.listed.name === 'heat-food')!.listed.incoming).toMatchObject({
      description: 'Heat food over a fire.',
      fileCount: 1,
    });
  });

  it('are filled in for the conflicts of a library written before them', async () => {
    await importSource(lib.deps, { path: second, onConflict: 'record' }, testJob());
    const expected = listConflicts(lib.db, { pendingOnly: false });
    // The same library as the version before migration 008 left it: no summary columns, 008 not applied.
    lib.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = path.join(lib.dir, 'older.db');
    copyFileSync(lib.dbFile, file);
    const old = new Database(file);
    registerTextFunctions(old);
    for (const column of [
      'incoming_description',
      'incoming_hash',
      'incoming_file_count',
      'incoming_warnings',
    ])
      old.exec(`ALTER TABLE import_conflicts DROP COLUMN ${column}`);
    old.prepare('DELETE FROM schema_migrations WHERE id = 8').run();
    old.close();
    const upgraded = openDb(file);
    try {
      const listed = listConflicts(upgraded, { pendingOnly: false });
      expect(listed.map((c) => c.incoming)).toEqual(expected.map((c) => c.incoming));
      expect(listed).toHaveLength(2);
    } finally {
      upgraded.close();
    }
  });
});
