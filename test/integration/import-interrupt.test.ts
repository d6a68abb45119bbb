// A cancelled or killed import leaves the library as it was before the skill in progress: whole skills only, and a
// re-import finishes the job.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/core/store/db';
import { importSource, latestImportReport } from '../../src/core/skills/index';
import {
  repoRoot,
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';
import type { Db } from '../../src/core/store/db';

let lib: TempLibrary;
beforeEach(() => {
  lib = tempLibrary();
});
afterEach(() => lib.close());

function writeTree(root: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    writeSkill(root, name, skillMd(name, `Skill number ${i}.`), {
      'references/notes.md': `Notes for ${name}: ${'detail '.repeat(50)}`,
      'scripts/run.sh': `echo ${i}\n`,
    });
  }
}

/** Every stored skill is whole: two package files and its own full-text row. */
function assertWholeSkills(db: Db): number {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  const skills = db.prepare('SELECT id FROM skills').all() as { id: number }[];
  const broken = db
    .prepare(
      `SELECT s.id FROM skills s
       WHERE (SELECT COUNT(*) FROM skill_files f WHERE f.skill_id = s.id) != 2
          OR NOT EXISTS (SELECT 1 FROM skills_fts t WHERE t.rowid = s.id)`,
    )
    .all();
  expect(broken).toEqual([]);
  // The index has external content: FTS5 compares it with the skills it was written from (throws on a difference).
  db.prepare("INSERT INTO skills_fts (skills_fts, rank) VALUES ('integrity-check', 1)").run();
  return skills.length;
}

describe('interrupted imports', () => {
  it('a cancel stops between skills; the library holds whole skills and re-import completes', async () => {
    const root = path.join(lib.dir, 'src');
    writeTree(root, 30);
    const controller = new AbortController();
    const job = testJob(controller);
    const report = await importSource(
      lib.deps,
      { path: root },
      {
        ...job,
        report: (p) => {
          job.report(p);
          if (p.done === 7) controller.abort();
        },
      },
    );
    expect(report.cancelled).toBe(true);
    expect(report.added).toHaveLength(7);
    expect(report.removed).toEqual([]);
    expect(assertWholeSkills(lib.db)).toBe(7);
    const again = await importSource(lib.deps, { path: root }, testJob());
    expect([again.cancelled, again.unchanged.length, again.added.length]).toEqual([false, 7, 23]);
    expect(assertWholeSkills(lib.db)).toBe(30);
  });

  it('a kill -9 mid-import leaves a sound file of whole skills; re-import completes', async () => {
    const root = path.join(lib.dir, 'big');
    const total = 600;
    writeTree(root, total);
    const dbFile = path.join(lib.dir, 'crash.db');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/skills/import-child.ts', root, dbFile],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; seen: number }>(
      (resolve) => {
        let seen = 0;
        let buffer = '';
        child.stdout.on('data', (d: Buffer) => {
          buffer += d.toString();
          const last = [...buffer.matchAll(/progress (\d+)/g)].at(-1);
          if (last) seen = Number(last[1]);
          buffer = buffer.slice(-64);
          if (seen >= 40 && !child.killed) child.kill('SIGKILL');
        });
        child.on('exit', (code, signal) => resolve({ code, signal, seen }));
      },
    );
    expect(exit.signal, `child did not get killed mid-way: ${stderr}`).toBe('SIGKILL');

    const db = openDb(dbFile);
    try {
      const kept = assertWholeSkills(db);
      expect(kept).toBeGreaterThanOrEqual(40);
      expect(kept).toBeLessThan(total);
      const deps = { ...lib.deps, db };
      // The killed import's report never ended: it is not the source's latest, and the next import's end drops it.
      const unfinished = () =>
        db.prepare('SELECT count(*) FROM import_reports WHERE counts IS NULL').pluck().get();
      expect(unfinished()).toBe(1);
      const again = await importSource(deps, { path: root }, testJob());
      expect(again.counts).toMatchObject({ unchanged: kept, added: total - kept });
      expect(assertWholeSkills(db)).toBe(total);
      expect(unfinished()).toBe(0);
      expect(latestImportReport(db, again.sourceId)!.added).toHaveLength(total - kept);
      expect(db.prepare('SELECT count(*) FROM import_report_entries').pluck().get()).toBe(total);
    } finally {
      db.close();
    }
  });
});
