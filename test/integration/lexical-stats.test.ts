// The lexical statistics persisted in the library (migration 041): after imports, edits, states edits, trash and undo,
// and a source removed, refreshing changes only the parts of the skills touched, and the sums equal a count from
// scratch; a refresh killed or cancelled goes on from what is still stale.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { LEXICAL_STATS_JOB, resumeLexicalStats } from '../../src/core/api/lexical-stats-job';
import { sampledFrom } from '../../src/core/models/lexical/library-index-cache';
import type { Row } from '../../src/core/models/lexical/library-index';
import {
  persistedStatistics,
  refreshAll,
  refreshBatch,
  staleCount,
} from '../../src/core/models/lexical/library-stats';
import { refreshInSlices, staleCountInWindows } from '../../src/core/models/lexical/stats-walk';
import { skillPart } from '../../src/core/models/lexical/skill-part';
import { importSource, removeSource } from '../../src/core/skills/index';
import { deleteToTrash, undoLastDelete } from '../../src/core/sources/trash';
import { editStates } from '../../src/core/states/skill-states';
import type { Db } from '../../src/core/store/db';
import { spawnTs } from '../fixtures/jobs/child-process';
import {
  repoRoot,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let root: string;
beforeEach(() => {
  lib = tempLibrary();
  root = path.join(lib.dir, 'src');
});
afterEach(() => lib.close());

const words = ['mug', 'microwave', 'fridge', 'tomato', 'kettle', 'boil', 'slice', 'knife', 'drawer', 'lamp'];
function writeSkills(dir: string, n: number, from = 0): void {
  for (let i = from; i < from + n; i++) {
    const w = (k: number) => words[(i * 7 + k * 3) % words.length]!;
    writeSkill(
      dir,
      `skill-${i}`,
      skillMd(
        `skill-${i}`,
        `Use the ${w(0)} to handle a ${w(1)} (e.g. a ${w(2)} or a ${w(3)}).`,
        `# Steps\n\nFind the ${w(4)}. Do not drop the ${w(5)}; never use a non-metal ${w(0)}.\n`,
      ),
    );
  }
}

/** The statistics counted from scratch from the skills and states the library holds now. */
function recount(db: Db) {
  const rows = db.prepare('SELECT id, name, description, body FROM skills ORDER BY id').all() as Row[];
  const states = db.prepare(
    `SELECT precondition, completion FROM skill_states WHERE skill_id = ? AND status IN ('parsed', 'edited', 'verified')`,
  );
  const df = new Map<string, number>();
  const sdf = new Map<string, number>();
  const plain = [0, 0, 0];
  const judged = [0, 0, 0];
  let sentences = 0;
  let sentenceLength = 0;
  for (const row of rows) {
    const st = states.get(row.id) as { precondition: string | null; completion: string | null } | undefined;
    const part = skillPart(
      row,
      st ? [st.precondition, st.completion].filter((t): t is string => t !== null) : [],
    );
    for (const t of part.terms) df.set(t, (df.get(t) ?? 0) + 1);
    for (const list of part.sentences) for (const t of list) sdf.set(t, (sdf.get(t) ?? 0) + 1);
    part.lengths.plain.forEach((n, i) => (plain[i]! += n));
    part.lengths.judged.forEach((n, i) => (judged[i]! += n));
    sentences += part.lengths.sentences.length;
    for (const n of part.lengths.sentences) sentenceLength += n;
  }
  const terms = [...new Set([...df.keys(), ...sdf.keys()])].sort();
  return {
    terms: terms.map((t) => [t, df.get(t) ?? 0, sdf.get(t) ?? 0]),
    totals: { skills: rows.length, sentences, plain, judged, sentenceLength },
  };
}

function stored(db: Db) {
  const totals = db.prepare('SELECT skills, sentences, lengths FROM lexical_totals').get() as {
    skills: number;
    sentences: number;
    lengths: string;
  };
  const l = JSON.parse(totals.lengths) as { plain: number[]; judged: number[]; sentences: number };
  return {
    terms: db
      .prepare('SELECT term, df, sdf FROM lexical_terms WHERE df > 0 OR sdf > 0 ORDER BY term')
      .raw()
      .all(),
    totals: {
      skills: totals.skills,
      sentences: totals.sentences,
      plain: l.plain,
      judged: l.judged,
      sentenceLength: l.sentences,
    },
  };
}

function expectCurrent(db: Db): void {
  refreshAll(db, 3);
  expect(staleCount(db)).toBe(0);
  expect(stored(db)).toEqual(recount(db));
}

let tick = 0;
const clock = () => new Date(Date.UTC(2026, 5, 1, 0, 0, tick++));

describe('lexical statistics, persisted', () => {
  it('equal a count from scratch after imports, edits, states edits, trash and undo, and a source removed', async () => {
    writeSkills(root, 8);
    await importSource(lib.deps, { path: root }, testJob());
    expectCurrent(lib.db);
    expect(persistedStatistics(lib.db).skills).toBe(8);

    writeSkills(root, 2, 8);
    writeFileSync(
      path.join(root, 'skill-3', 'SKILL.md'),
      skillMd('skill-3', 'Wash the kettle in the sink', '# Wash\n\nRinse the kettle twice, then dry it.\n'),
    );
    rmSync(path.join(root, 'skill-5'), { recursive: true });
    await importSource(lib.deps, { path: root }, testJob());
    // Only the added, changed and removed skills are stale.
    expect(staleCount(lib.db)).toBe(4);
    expectCurrent(lib.db);

    const id = (name: string) =>
      lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
    editStates(lib.db, clock, id('skill-1'), {
      precondition: 'The robot holds a cold mug.',
      completion: 'The mug is hot.',
    });
    editStates(lib.db, clock, id('skill-2'), { completion: 'The tomato is sliced.' });
    expect(staleCount(lib.db)).toBe(2);
    expectCurrent(lib.db);
    editStates(lib.db, clock, id('skill-1'), { completion: 'The mug is warm and clean.' });
    expect(staleCount(lib.db)).toBe(1);
    expectCurrent(lib.db);

    deleteToTrash(lib.db, { skillIds: [id('skill-1'), id('skill-4')] }, '2026-06-02T00:00:00.000Z');
    expectCurrent(lib.db);
    undoLastDelete(lib.db, '2026-06-02T00:00:01.000Z');
    expectCurrent(lib.db);
    // The re-import's removal went to the trash too: undone, skill-5 counts again.
    undoLastDelete(lib.db, '2026-06-02T00:00:02.000Z');
    expect(id('skill-5')).toBeGreaterThan(0);
    expectCurrent(lib.db);

    const other = path.join(lib.dir, 'other');
    writeSkills(other, 3, 20);
    await importSource(lib.deps, { path: other }, testJob());
    expectCurrent(lib.db);
    const sourceId = lib.db
      .prepare('SELECT source_id FROM skills WHERE name = ?')
      .pluck()
      .get('skill-20') as number;
    removeSource(lib.deps, sourceId);
    expectCurrent(lib.db);
    expect(persistedStatistics(lib.db).skills).toBe(10);
    // Terms no skill holds any more count zero, and every remaining one is counted.
    expect(persistedStatistics(lib.db).df('wash')).toBe(1);
  });

  it('goes on after a kill -9 from the skills still stale', async () => {
    writeSkills(root, 40);
    await importSource(lib.deps, { path: root }, testJob());
    const child = spawnTs(path.join(repoRoot, 'test/fixtures/jobs/lexical-stats-child.ts'), [lib.dbFile]);
    await child.waitFor(/batch 5\b/, 60_000);
    child.proc.kill('SIGKILL');
    await child.exited;
    const left = staleCount(lib.db);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(35);
    expect(persistedStatistics(lib.db).skills).toBe(40 - left);
    expectCurrent(lib.db);
  });

  it('runs as a job that, cancelled, resumes where it stopped', async () => {
    writeSkills(root, 30);
    await importSource(lib.deps, { path: root }, testJob());
    refreshBatch(lib.db, 10);
    const dataDir = path.join(lib.dir, 'data');
    const core = createCore({ dataDir, dbFile: lib.dbFile, resourcesDir: path.join(repoRoot, 'resources') });
    try {
      const job = core.context.jobs.start(LEXICAL_STATS_JOB, {});
      core.context.jobs.cancel(job.id);
      const cancelled = await core['jobs.wait']({ id: job.id });
      expect(cancelled.status).toBe('cancelled');
      expect(staleCount(core.context.db)).toBeGreaterThan(0);
      const resumed = await core['jobs.wait']({ id: core.context.jobs.resume(job.id).id });
      expect(resumed.status).toBe('done');
      expect(resumed.progress).toMatchObject({ done: 30, total: 30 });
      expect(staleCount(core.context.db)).toBe(0);
      expect(stored(core.context.db)).toEqual(recount(core.context.db));
    } finally {
      await core.close();
    }
  });

  it('are walked in id windows and slices, a skill gone stale behind the walk included, and go on after a cancel', async () => {
    writeSkills(root, 40);
    await importSource(lib.deps, { path: root }, testJob());
    const id = (name: string) =>
      lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
    expect(await staleCountInWindows(lib.db, undefined, 7)).toBe(40);

    // Cancelled after the third batch: what was counted stays counted, the rest is still stale.
    const stop = new AbortController();
    let batches = 0;
    await refreshInSlices(lib.db, {
      windowIds: 7,
      signal: stop.signal,
      onBatch: () => {
        if (++batches === 3) stop.abort();
      },
    });
    const left = staleCount(lib.db);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(40);
    expect(await staleCountInWindows(lib.db, undefined, 7)).toBe(left);

    // While the walk goes on, the event loop turns between batches, and a skill the walk has passed goes stale.
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    let edited = false;
    try {
      await refreshInSlices(lib.db, {
        windowIds: 7,
        onBatch: () => {
          if (edited || staleCount(lib.db) > 5) return;
          edited = true;
          editStates(lib.db, clock, id('skill-0'), { completion: 'The kettle is clean and dry.' });
        },
      });
    } finally {
      clearInterval(ticker);
    }
    expect(edited).toBe(true);
    expect(turns).toBeGreaterThan(0);
    expect(staleCount(lib.db)).toBe(0);
    expect(stored(lib.db)).toEqual(recount(lib.db));
    expect(persistedStatistics(lib.db).df('dry')).toBe(0);
    expect(persistedStatistics(lib.db).sdf('dry')).toBe(1);
  });

  it('is started for a large library with stale skills, and not again once they are counted', async () => {
    writeSkills(root, 12);
    await importSource(lib.deps, { path: root }, testJob());
    const saved = sampledFrom.skills;
    sampledFrom.skills = 5;
    const core = createCore({
      dataDir: path.join(lib.dir, 'data'),
      dbFile: lib.dbFile,
      resourcesDir: path.join(repoRoot, 'resources'),
    });
    try {
      const job = await resumeLexicalStats(core.context);
      expect(job?.kind).toBe(LEXICAL_STATS_JOB);
      // Asked again while it runs: the same job.
      expect((await resumeLexicalStats(core.context))?.id).toBe(job!.id);
      const done = await core['jobs.wait']({ id: job!.id });
      expect(done.status).toBe('done');
      expect(done.progress).toMatchObject({ done: 12, total: 12 });
      expect(await resumeLexicalStats(core.context)).toBeNull();
      expect(stored(core.context.db)).toEqual(recount(core.context.db));
    } finally {
      sampledFrom.skills = saved;
      await core.close();
    }
  });
});
