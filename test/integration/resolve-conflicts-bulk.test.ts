// Many conflicts answered at once through the API, on a real library: a dry run changes nothing and counts the
// curator edits a replace would overwrite; a replace refuses those edits unless told, and records the change when
// told; a conflict whose write fails stays open while the others are done, and a rerun finishes it; already resolved
// and unknown ids are reported; a failure that loses the batch's transaction redoes it one by one; the Library hears one
// change per call.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { CuratorEvent } from '../../src/shared/events';
import { conflictName, openConflicts } from '../fixtures/skills/conflicting-sources';

let dir: string;
let core: Core;
let events: CuratorEvent[];
let secondSourceId: number;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-bulk-conflicts-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  ({ secondSourceId } = await openConflicts(core, dir, 6, [1, 4]));
  events = [];
  core.context.events.on((e) => events.push(e));
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = async () => (await core['library.conflicts']({})).map((c) => c.name);
const changes = () => events.filter((e) => e.type === 'library.changed');
const bodyOf = async (i: number) =>
  (await core['library.list']({ limit: 100 })).items
    .filter((s) => s.name === conflictName(i))
    .map((s) => s.description)
    .sort();

describe('library.resolveConflicts', () => {
  it('a dry run lists what each conflict would do, counts the edits a replace overwrites, and writes nothing', async () => {
    const plan = await core['library.resolveConflicts']({ all: 'open', resolution: 'replace', dryRun: true });
    expect(plan).toMatchObject({ dryRun: true, resolved: 0, failed: 0, editedSkills: 2 });
    expect(plan.items.map((i) => i.outcome)).toEqual(Array(6).fill('planned'));
    expect(plan.items.filter((i) => i.editedSkills.length).map((i) => i.name)).toEqual([
      conflictName(1),
      conflictName(4),
    ]);
    expect(plan.items[1]!.editedSkills).toEqual([
      expect.objectContaining({ name: conflictName(1), status: 'edited', change: 'content-replaced' }),
    ]);
    // keep-both writes beside the edited skills: nothing of a person's is overwritten.
    const keep = await core['library.resolveConflicts']({
      all: 'open',
      resolution: 'keep-both',
      dryRun: true,
    });
    expect(keep.editedSkills).toBe(0);
    expect(await open()).toHaveLength(6);
    expect(await bodyOf(1)).toEqual(['Open the clash-0001 valve by hand.']);
    expect(changes()).toEqual([]);
  });

  it('replace leaves conflicts over edited skills open until the curator agrees, then records the change', async () => {
    const first = await core['library.resolveConflicts']({ all: 'open', resolution: 'replace' });
    expect(first).toMatchObject({ resolved: 4, failed: 2, editedSkills: 0 });
    const refused = first.items.filter((i) => i.outcome === 'failed');
    expect(refused.map((i) => [i.name, i.error?.code])).toEqual([
      [conflictName(1), 'CONFLICT'],
      [conflictName(4), 'CONFLICT'],
    ]);
    expect(refused[0]!.error!.message).toMatch(/edited.*left open/);
    expect(await open()).toEqual([conflictName(1), conflictName(4)]);
    expect(await bodyOf(0)).toEqual(['Open the clash-0000 valve with a motor.']);
    expect(await bodyOf(1)).toEqual(['Open the clash-0001 valve by hand.']);
    expect(changes()).toHaveLength(1);

    const agreed = await core['library.resolveConflicts']({
      ids: refused.map((i) => i.id),
      resolution: 'replace',
      overwriteEdits: true,
    });
    expect(agreed).toMatchObject({ resolved: 2, failed: 0, editedSkills: 2 });
    expect(await open()).toEqual([]);
    const skill = await core['library.get']({ name: conflictName(1) });
    expect(skill.description).toBe('Open the clash-0001 valve with a motor.');
    // The person's states stay, and the skill says its content changed under them.
    expect((await core['states.get']({ skillId: skill.id })).status).toBe('edited');
    const change = await core['sources.skillChange']({ skillId: skill.id });
    expect(JSON.stringify(change?.diff)).toContain('Press the clash-0001 button.');
    expect(changes()).toHaveLength(2);
  });

  it('keep-both answers all open conflicts of a source in one call; ids already resolved or unknown are reported', async () => {
    const result = await core['library.resolveConflicts']({
      all: 'open',
      sourceId: secondSourceId,
      resolution: 'keep-both',
    });
    expect(result).toMatchObject({ resolved: 6, failed: 0 });
    expect(result.items.every((i) => typeof i.skillId === 'number')).toBe(true);
    expect(await open()).toEqual([]);
    expect(await bodyOf(2)).toEqual([
      'Open the clash-0002 valve by hand.',
      'Open the clash-0002 valve with a motor.',
    ]);
    const again = await core['library.resolveConflicts']({
      ids: [result.items[0]!.id, 999_999],
      resolution: 'skip',
    });
    expect(again).toMatchObject({ resolved: 0, failed: 2 });
    expect(again.items.map((i) => i.error)).toEqual([
      { code: 'CONFLICT', message: expect.stringMatching(/already resolved \(keep-both\)/) },
      { code: 'NOT_FOUND', message: expect.stringMatching(/No import conflict 999999/) },
    ]);
    expect(changes()).toHaveLength(1);
    const none = await core['library.resolveConflicts']({ all: 'open', sourceId: 12345, resolution: 'skip' });
    expect(none.items).toEqual([]);
  });

  it('a conflict whose write fails stays open and is reported; the others are done, and a rerun finishes it', async () => {
    const db = core.context.db;
    // The real library refuses one write (as a full disk or a damaged page would), through a trigger on this connection.
    db.exec(`CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON skills WHEN NEW.name = '${conflictName(3)}'
             BEGIN SELECT RAISE(ABORT, 'disk refused the write'); END`);
    const result = await core['library.resolveConflicts']({ all: 'open', resolution: 'keep-both' });
    expect(result).toMatchObject({ resolved: 5, failed: 1 });
    const failed = result.items.find((i) => i.outcome === 'failed')!;
    expect(failed.name).toBe(conflictName(3));
    expect(failed.error?.message).toMatch(/disk refused the write/);
    expect(await open()).toEqual([conflictName(3)]);
    expect(await bodyOf(3)).toEqual(['Open the clash-0003 valve by hand.']);
    expect(await bodyOf(5)).toHaveLength(2);

    db.exec('DROP TRIGGER refuse_one');
    const rerun = await core['library.resolveConflicts']({ all: 'open', resolution: 'keep-both' });
    expect(rerun).toMatchObject({ resolved: 1, failed: 0 });
    expect(await open()).toEqual([]);
    expect(await bodyOf(3)).toHaveLength(2);
  });

  it('a failure that rolls back the whole batch redoes it one by one: only the failing conflict stays open', async () => {
    const db = core.context.db;
    // RAISE(ROLLBACK) ends the transaction itself, not the conflict's savepoint.
    db.exec(`CREATE TEMP TRIGGER lose_batch BEFORE INSERT ON skills WHEN NEW.name = '${conflictName(1)}'
             BEGIN SELECT RAISE(ROLLBACK, 'the transaction was lost'); END`);
    const result = await core['library.resolveConflicts']({ all: 'open', resolution: 'keep-both' });
    db.exec('DROP TRIGGER lose_batch');
    expect(result).toMatchObject({ resolved: 5, failed: 1 });
    expect(result.items.find((i) => i.outcome === 'failed')).toMatchObject({
      name: conflictName(1),
      error: { message: expect.stringMatching(/the transaction was lost/) },
    });
    expect(await open()).toEqual([conflictName(1)]);
    expect(await bodyOf(0)).toHaveLength(2);
    expect(await bodyOf(1)).toHaveLength(1);
  });

  it('one replace (library.resolveConflict) over an edited skill is refused until told, then says the skill changed under its states', async () => {
    const conflict = (await core['library.conflicts']({})).find((c) => c.name === conflictName(4))!;
    await expect(
      core['library.resolveConflict']({ id: conflict.id, resolution: 'replace' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { editedSkills: [expect.objectContaining({ skillId: conflict.existingSkillId })] },
    });
    expect(await core['sources.skillChange']({ skillId: conflict.existingSkillId })).toBeNull();
    await core['library.resolveConflict']({ id: conflict.id, resolution: 'replace', overwriteEdits: true });
    const change = await core['sources.skillChange']({ skillId: conflict.existingSkillId });
    expect(change).toMatchObject({ skillId: conflict.existingSkillId, reviewStatus: 'edited' });
    expect(JSON.stringify(change?.diff)).toContain('Press the clash-0004 button.');
  });

  it('refuses a request that does not say which conflicts or how', async () => {
    const bad = [
      { resolution: 'keep-both' },
      { ids: [1], all: 'open', resolution: 'keep-both' },
      { all: 'open', resolution: 'merge' },
      { ids: [0], resolution: 'skip' },
      { ids: [1], sourceId: 1, resolution: 'skip' },
    ];
    for (const req of bad)
      await expect(core['library.resolveConflicts'](req as never)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    expect(await open()).toHaveLength(6);
  });
});
