// The trash: every delete is listed and any one can be restored, not only the last; a delete that holds states a
// curator edited or verified is kept past the last 20 (a daily re-import that removes skills must not push it out)
// until someone deletes it for good; the count of reviewed skills is filled in for deletes kept before migration 062.
// A real core on a real SQLite file, the bundled sample library.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { trashKept } from '../../src/core/sources/trash';
import type { ImportReport } from '../../src/shared/api';
import { evictedNote } from '../../src/shared/trash-words';

const resources = path.resolve('resources');
let dir: string;
let dataDir: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-trash-'));
  dataDir = path.join(dir, 'data');
  core = createCore({ dataDir, resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}, 60_000);

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const idOf = async (name: string) => (await core['library.get']({ name })).id;

describe('the trash', () => {
  it('keeps a delete with reviewed states past the last 20, restores it out of order, and empties on request', async () => {
    const coffee = await idOf('household-make-coffee');
    await core['states.edit']({
      skillId: coffee,
      precondition: 'A mug is at hand.',
      completion: 'The coffee machine has brewed coffee into the mug.',
    });
    const reviewedDelete = await core['sources.delete']({ skillIds: [coffee] });
    expect(reviewedDelete).toMatchObject({ label: 'household-make-coffee', skillCount: 1, reviewedCount: 1 });

    // More unreviewed deletes than the trash keeps.
    const others = (await core['library.list']({ limit: 100 })).items
      .map((s) => s.id)
      .slice(0, trashKept + 5);
    const deletes = [];
    for (const id of others) deletes.push(await core['sources.delete']({ skillIds: [id] }));
    // Each delete past the 20th pushes the oldest unreviewed one out, and says which; the reviewed one stays.
    expect(deletes.slice(0, trashKept).every((d) => d.evicted.length === 0)).toBe(true);
    expect(deletes[trashKept]!.evicted).toEqual([
      expect.objectContaining({ id: deletes[0]!.id, label: deletes[0]!.label, skillCount: 1 }),
    ]);
    expect(deletes.at(-1)!.evicted.map((d) => d.id)).toEqual([deletes.at(-trashKept - 1)!.id]);
    expect(evictedNote(deletes[trashKept]!.evicted)).toMatch(
      new RegExp(
        `^The oldest delete in the trash \\(${deletes[0]!.label}, deleted \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\) can no longer be restored: the trash keeps the last 20`,
      ),
    );

    const kept = await core['sources.trash']({});
    expect(kept.map((d) => d.id)).toEqual([
      ...deletes
        .slice(-trashKept)
        .map((d) => d.id)
        .reverse(),
      reviewedDelete.id,
    ]);

    const restored = await core['sources.restoreDeleted']({ id: reviewedDelete.id });
    expect(restored.restoredSkillIds).toEqual([coffee]);
    expect(await core['states.get']({ skillId: coffee })).toMatchObject({
      status: 'edited',
      completion: 'The coffee machine has brewed coffee into the mug.',
    });
    await expect(core['sources.restoreDeleted']({ id: reviewedDelete.id })).rejects.toThrow(/was restored/);
    // Undo still takes the newest delete.
    const undone = await core['sources.undoDelete']({});
    expect(undone.id).toBe(deletes.at(-1)!.id);

    const one = (await core['sources.trash']({}))[0]!;
    expect(await core['sources.emptyTrash']({ id: one.id })).toEqual({ deletes: 1, skills: 1, reviewed: 0 });
    expect((await core['sources.trash']({})).map((d) => d.id)).not.toContain(one.id);
    await expect(core['sources.restoreDeleted']({ id: one.id })).rejects.toThrow(/No delete/);
    const left = (await core['sources.trash']({})).length;
    expect(await core['sources.emptyTrash']({})).toMatchObject({ deletes: left, skills: left });
    expect(await core['sources.trash']({})).toEqual([]);
  }, 60_000);

  it('counts the reviewed skills of deletes kept before migration 062', async () => {
    const [first, second] = (await core['library.list']({ limit: 2 })).items;
    const [verified, plain] = [first!.id, second!.id];
    await core['states.edit']({ skillId: verified!, completion: 'The object is hot.' });
    await core['states.verify']({ skillId: verified! });
    const deleted = await core['sources.delete']({ skillIds: [verified!, plain!] });
    expect(deleted.reviewedCount).toBe(1);
    // Named, not counted ("2 skills"), in the delete, the trash and a restore.
    expect(deleted.label).toBe(`${first!.name}, ${second!.name}`);

    // As a library from before migration 062 holds it: no count column, the migration not applied.
    const db = core.context.db;
    db.prepare('ALTER TABLE deleted_items DROP COLUMN reviewed_count').run();
    db.prepare('DELETE FROM schema_migrations WHERE id = 62').run();
    await core.close();
    core = createCore({ dataDir, resourcesDir: resources });
    expect((await core['sources.trash']({})).find((d) => d.id === deleted.id)).toMatchObject({
      skillCount: 2,
      reviewedCount: 1,
      label: `${first!.name}, ${second!.name}`,
    });
  }, 60_000);

  it('names the first three skills of a delete of several, and the skills of one recorded as a count', async () => {
    const items = (await core['library.list']({ limit: 5 })).items;
    const names = items.map((s) => s.name);
    const deleted = await core['sources.delete']({ skillIds: items.map((s) => s.id) });
    expect(deleted.label).toBe(`${names[0]}, ${names[1]}, ${names[2]} and 2 more`);
    expect((await core['sources.trash']({}))[0]).toMatchObject({ id: deleted.id, label: deleted.label });

    // A delete recorded before labels named the skills.
    core.context.db.prepare("UPDATE deleted_items SET label = '5 skills' WHERE id = ?").run(deleted.id);
    expect((await core['sources.trash']({}))[0]!.label).toBe(deleted.label);
    const restored = await core['sources.undoDelete']({});
    expect(restored).toMatchObject({ id: deleted.id, label: deleted.label });
    expect(restored.restoredSkillIds).toHaveLength(5);
  }, 60_000);
  it('a re-import whose removals push an old delete out of the trash says which, in its report', async () => {
    await core['sources.emptyTrash']({});
    const folder = path.join(dir, 'own');
    for (const name of ['own-keep', 'own-gone']) {
      mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(
        path.join(folder, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: Does ${name}.\n---\n\nSteps.\n`,
      );
    }
    const importOwn = async () => {
      const job = await core['library.import']({ path: folder });
      const done = await core['jobs.wait']({ id: job.id });
      expect(done.status).toBe('done');
      return done.result as ImportReport;
    };
    await importOwn();
    const ids = (await core['library.list']({ limit: 100 })).items
      .filter((s) => !s.name.startsWith('own-'))
      .map((s) => s.id)
      .slice(0, trashKept);
    const deletes = [];
    for (const id of ids) deletes.push(await core['sources.delete']({ skillIds: [id] }));
    rmSync(path.join(folder, 'own-gone'), { recursive: true });
    const report = await importOwn();
    expect(report.removedToTrash).toBe(true);
    expect(report.trashEvicted).toEqual([{ label: deletes[0]!.label, deletedAt: deletes[0]!.deletedAt }]);
  }, 60_000);
});
