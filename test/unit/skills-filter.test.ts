// Review-status filters on lists and search: a skill without a states row is 'unparsed', and the filters work whether
// or not the states table exists in the file yet.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getSkillByName,
  importSource,
  libraryStats,
  listSkills,
  searchKeyword,
  setEnvironmentNote,
} from '../../src/core/skills/index';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(async () => {
  lib = tempLibrary();
  const root = path.join(lib.dir, 'src');
  writeSkill(root, 'open-jar', skillMd('open-jar', 'Open a jar lid.'));
  writeSkill(root, 'close-jar', skillMd('close-jar', 'Close a jar lid.'));
  writeSkill(root, 'label-jar', skillMd('label-jar', 'Label a jar.'));
});
afterEach(() => lib.close());

const idOf = (name: string) => listSkills(lib.db).items.find((s) => s.name === name)!.id;
const names = (items: { name: string }[]) => items.map((s) => s.name).sort();

describe('review status filters', () => {
  it('reads statuses from skill_states, treating a missing row as unparsed', async () => {
    await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    const insert = lib.db.prepare(
      `INSERT INTO skill_states (skill_id, precondition, completion, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'now', 'now')`,
    );
    insert.run(idOf('open-jar'), null, 'The jar is open.', 'verified');
    insert.run(idOf('close-jar'), null, null, 'failed');
    expect(names(listSkills(lib.db, { status: 'verified' }).items)).toEqual(['open-jar']);
    expect(names(listSkills(lib.db, { status: 'unparsed' }).items)).toEqual(['label-jar']);
    expect(names(listSkills(lib.db, { hasErrors: true }).items)).toEqual(['close-jar']);
    expect(listSkills(lib.db, { hasErrors: false }).total).toBe(2);
    expect(
      searchKeyword(lib.db, { query: 'jar', status: 'failed' }).hits.map((h) => [
        h.skill.name,
        h.skill.status,
      ]),
    ).toEqual([['close-jar', 'failed']]);
  });

  it('works on a file whose states table does not exist yet', async () => {
    lib.db.exec('DROP TABLE state_history; DROP TABLE skill_states');
    await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    expect(listSkills(lib.db, { status: 'unparsed' }).total).toBe(3);
    expect(listSkills(lib.db, { status: 'parsed' }).total).toBe(0);
    expect(searchKeyword(lib.db, { query: 'jar', hasErrors: false }).total).toBe(3);
  });

  it('pages lists with a total and refuses bad paging', async () => {
    await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    const page = listSkills(lib.db, { limit: 2, offset: 2 });
    expect(page.total).toBe(3);
    expect(page.items.map((s) => s.name)).toEqual(['open-jar']);
    expect(() => listSkills(lib.db, { limit: 0 })).toThrow(/limit/);
  });

  it('gives stats per status and source, looks skills up by name, and keeps a source note', async () => {
    const { sourceId } = await importSource(lib.deps, { path: path.join(lib.dir, 'src') }, testJob());
    lib.db
      .prepare(
        `INSERT INTO skill_states (skill_id, precondition, completion, status, created_at, updated_at) VALUES (?, NULL, 'Done.', 'parsed', 'now', 'now')`,
      )
      .run(idOf('label-jar'));
    const stats = libraryStats(lib.db);
    expect(stats).toMatchObject({ skills: 3, sources: 1, withWarnings: 0, openConflicts: 0, files: 0 });
    expect(stats.byStatus).toEqual({ unparsed: 2, parsed: 1, failed: 0, edited: 0, verified: 0 });
    expect(stats.perSource).toEqual([expect.objectContaining({ id: sourceId, skills: 3 })]);
    expect(stats.dbBytes).toBeGreaterThan(0);
    expect(getSkillByName(lib.db, 'open-jar')).toMatchObject({ name: 'open-jar', sourceLabel: 'src' });
    expect(() => getSkillByName(lib.db, 'nope')).toThrow(/No skill named/);
    expect(setEnvironmentNote(lib.db, sourceId, 'Actions: open, close.').environmentNote).toBe(
      'Actions: open, close.',
    );
    expect(setEnvironmentNote(lib.db, sourceId, '  ').environmentNote).toBeNull();
    expect(() => setEnvironmentNote(lib.db, 99, 'x')).toThrow(/No source/);
  });
});
