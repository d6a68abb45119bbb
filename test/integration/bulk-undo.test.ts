// The lasting Undo of the Library's bulk actions (issue 27, item 1) over a real core on a SQLite file and the loopback
// OpenAI server: bulk Verify, Tag, Re-parse and Back to parsed are each recorded as one change that bulk.last shows
// until the next bulk action, and bulk.undo puts back exactly what each skill had before it; a skill someone changed
// again since (an edit, a delete, a tag taken off) is left as it is and named with the reason, never overwritten.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startOpenAiServer, userText, type OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from './llm-harness';

let dir: string;
let core: Core;
let llm: OpenAiServer;
let reply: (name: string) => string;
let ids: Record<'alpha' | 'beta' | 'gamma' | 'delta', number>;

const states = async (skillId: number) => {
  const s = await core['states.get']({ skillId });
  return { status: s.status, precondition: s.precondition, completion: s.completion };
};
const all = async () =>
  Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([n, id]) => [n, await states(id)])));
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (e: { code: string; message: string }) => e,
  );

async function reparse(skillIds: number[], replace = false) {
  const job = await core['parse.skills']({ ids: skillIds, force: true, replace, bulk: true });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-bulk-undo-'));
  reply = (name) => `The ${name} result exists.`;
  llm = await startOpenAiServer({
    reply: (req) => ({
      content: `Precondition_State: None\nCompletion_State: ${reply(/\nname: (\S+)/.exec(userText(req))?.[1] ?? '?')}`,
    }),
  });
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  await core['settings.update']({
    patch: { llm: { baseURL: llm.baseURL, model: 'test-model', maxRetries: 0, concurrency: 1 } },
  });
  const db = core.context.db;
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/skills', 'test', '2026-01-01')",
  ).run();
  ids = {
    alpha: insertSkill(db, 'alpha'),
    beta: insertSkill(db, 'beta'),
    gamma: insertSkill(db, 'gamma'),
    delta: insertSkill(db, 'delta'),
  };
  const job = await core['parse.skills']({});
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  // beta's states are a curator's words.
  await core['states.edit']({ skillId: ids.beta, completion: 'The curator wrote this for beta.' });
});

afterEach(async () => {
  await core.close();
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bulk verify', () => {
  it('stays undoable after any wait, restores each skill exactly, and skips one edited or deleted since', async () => {
    const before = await all();
    const verified = await core['states.verifyMany']({ skillIds: Object.values(ids) });
    expect(verified.change).toMatchObject({ kind: 'verify', label: 'Verified 4 skills', skillCount: 4 });
    expect(await core['bulk.last']({})).toEqual(verified.change);

    // A curator corrects gamma afterwards, and delta is deleted: Undo must not touch gamma's new words.
    await core['states.edit']({ skillId: ids.gamma, completion: 'Corrected after the bulk verify.' });
    await core['sources.delete']({ skillIds: [ids.delta] });

    const undone = await core['bulk.undo']({ id: verified.change!.id });
    expect(undone.restored.sort()).toEqual([ids.alpha, ids.beta].sort());
    expect(undone.skipped).toEqual([
      { skillId: ids.delta, name: null, reason: 'deleted' },
      {
        skillId: ids.gamma,
        name: 'gamma',
        reason: expect.stringMatching(/^edited at \d{4}-\d\d-\d\d \d\d:\d\d$/),
      },
    ]);
    expect(undone.message).toMatch(
      /^2 skills back as they were; 2 left as they are because they changed since: skill \d+ \(deleted\), gamma \(edited at /,
    );
    expect(await states(ids.alpha)).toEqual(before.alpha);
    expect(await states(ids.beta)).toEqual(before.beta);
    expect(await states(ids.gamma)).toEqual({
      status: 'edited',
      precondition: null,
      completion: 'Corrected after the bulk verify.',
    });
    // Undone: the bar has nothing to offer, and a second Undo is refused with the reason.
    expect(await core['bulk.last']({})).toBeNull();
    const again = await refusal(core['bulk.undo']({ id: verified.change!.id }));
    expect(again).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('was undone on') });
  });

  it('shows only the newest bulk action, and records nothing when nothing changed', async () => {
    const first = await core['states.verifyMany']({ skillIds: [ids.alpha] });
    const again = await core['states.verifyMany']({ skillIds: [ids.alpha] });
    expect(again).toMatchObject({ verified: [], alreadyVerified: [ids.alpha], change: null });
    expect((await core['bulk.last']({}))?.id).toBe(first.change!.id);
    // A tag put on one skill page is not a bulk action.
    await core['tags.add']({ skillIds: [ids.beta], tags: ['single'] });
    expect((await core['bulk.last']({}))?.id).toBe(first.change!.id);
    const tagged = await core['tags.add']({ skillIds: [ids.beta, ids.gamma], tags: ['Kitchen'], bulk: true });
    expect(await core['bulk.last']({})).toEqual(tagged.change);
  });
});

describe('bulk tag', () => {
  it('undo takes the tag off only the skills that did not have it, and says which lost it since', async () => {
    await core['tags.add']({ skillIds: [ids.alpha], tags: ['kitchen'] });
    const added = await core['tags.add']({
      skillIds: [ids.alpha, ids.beta, ids.gamma],
      tags: ['Kitchen', 'objects'],
      bulk: true,
    });
    expect(added).toMatchObject({ added: 5, change: { kind: 'tag-add', skillCount: 3 } });
    expect(added.change!.label).toBe('Tagged 3 skills “kitchen”, “objects”');
    await core['tags.remove']({ skillIds: [ids.gamma], tags: ['objects'] });

    const undone = await core['bulk.undo']({ id: added.change!.id });
    expect(undone.skipped).toEqual([
      { skillId: ids.gamma, name: 'gamma', reason: '“objects” already taken off' },
    ]);
    expect(await core['tags.of']({ skillIds: [ids.alpha, ids.beta, ids.gamma] })).toEqual({
      [ids.alpha]: ['kitchen'],
      [ids.beta]: [],
      [ids.gamma]: [],
    });
  });

  it('undo of a bulk remove puts the tag back on the skills that had it', async () => {
    await core['tags.add']({ skillIds: [ids.alpha, ids.beta], tags: ['old'] });
    const removed = await core['tags.remove']({
      skillIds: [ids.alpha, ids.gamma],
      tags: ['old'],
      bulk: true,
    });
    expect(removed).toMatchObject({ removed: 1, change: { label: 'Took “old” off 1 skill' } });
    await core['bulk.undo']({ id: removed.change!.id });
    expect((await core['tags.list']({})).find((t) => t.tag === 'old')).toEqual({ tag: 'old', skills: 2 });
    expect((await core['tags.of']({ skillIds: [ids.gamma] }))[ids.gamma]).toEqual([]);
  });
});

describe('bulk re-parse', () => {
  it('undo puts back the states the re-parse replaced, skipping a skill edited since', async () => {
    const before = await all();
    reply = (name) => `A second answer for ${name}.`;
    await reparse([ids.alpha, ids.beta, ids.gamma], true);
    const last = await core['bulk.last']({});
    expect(last).toMatchObject({ kind: 'reparse', label: 'Re-parsed 3 skills', running: false });
    expect((await states(ids.beta)).completion).toBe('A second answer for beta.');
    await core['states.edit']({ skillId: ids.gamma, completion: 'Edited after the re-parse.' });

    const undone = await core['bulk.undo']({ id: last!.id });
    expect(undone.restored.sort()).toEqual([ids.alpha, ids.beta].sort());
    expect(undone.skipped.map((s) => [s.name, s.reason.replace(/ at .*/, '')])).toEqual([
      ['gamma', 'edited'],
    ]);
    expect(await states(ids.alpha)).toEqual(before.alpha);
    // The curator's words come back, and so does their protection from the next re-parse.
    expect(await states(ids.beta)).toEqual(before.beta);
    expect((await states(ids.gamma)).completion).toBe('Edited after the re-parse.');
  });

  it('a re-parse that kept every skill (edited, no Replace) offers no Undo', async () => {
    await reparse([ids.beta]);
    expect(await core['bulk.last']({})).toBeNull();
  });
});

describe('back to parsed', () => {
  it('un-verifies keeping the states, a curator’s states going back to edited; Undo verifies them again', async () => {
    await core['states.verifyMany']({ skillIds: [ids.alpha, ids.beta] });
    const back = await core['bulk.backToParsed']({ skillIds: [ids.alpha, ids.beta, ids.gamma] });
    expect(back).toMatchObject({ parsed: [ids.alpha], edited: [ids.beta], notVerified: [ids.gamma] });
    expect(back.change).toMatchObject({ kind: 'back-to-parsed', label: 'Un-verified 2 skills' });
    expect(await states(ids.alpha)).toEqual({
      status: 'parsed',
      precondition: null,
      completion: 'The alpha result exists.',
    });
    expect(await states(ids.beta)).toMatchObject({
      status: 'edited',
      completion: 'The curator wrote this for beta.',
    });
    expect((await core['states.history']({ skillId: ids.alpha }))[0]!.action).toBe('unverify');

    await core['bulk.undo']({ id: back.change!.id });
    expect((await states(ids.alpha)).status).toBe('verified');
    expect((await states(ids.beta)).status).toBe('verified');
  });
});

describe('migration 22', () => {
  it('keeps the history of a library written before it, and its rows restore as before', async () => {
    const db = core.context.db;
    const history = db.prepare(
      'SELECT id, skill_id, action, before, after, at FROM state_history ORDER BY id',
    );
    const kept = history.all();
    expect(kept.length).toBeGreaterThan(4);
    // The library as migration 21 left it: state_history without the batch column and 'unverify'.
    db.exec(`
      CREATE TABLE old_history (id INTEGER PRIMARY KEY, skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        action TEXT NOT NULL CHECK (action IN ('parse','parse-failed','reparse','edit','verify','revert')),
        before TEXT, after TEXT NOT NULL, at TEXT NOT NULL);
      INSERT INTO old_history SELECT id, skill_id, action, before, after, at FROM state_history;
      DROP TABLE state_history; ALTER TABLE old_history RENAME TO state_history;
      DROP TABLE bulk_changes; DELETE FROM schema_migrations WHERE id = 22;`);
    await core.close();
    core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
    expect(
      core.context.db
        .prepare('SELECT id, skill_id, action, before, after, at FROM state_history ORDER BY id')
        .all(),
    ).toEqual(kept);
    const verified = await core['states.verifyMany']({ skillIds: [ids.beta] });
    await core['bulk.undo']({ id: verified.change!.id });
    expect(await states(ids.beta)).toMatchObject({ status: 'edited' });
  });
});
