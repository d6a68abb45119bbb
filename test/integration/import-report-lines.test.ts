// An import's report is kept once, a line per row in the library (import_report_entries), written with the skills it
// reports; the job's result and the screens get the first 100 lines of each list, and whole counts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { latestImportReport } from '../../src/core/store/import-reports-repo';
import type { ImportReport } from '../../src/shared/api';
import { repoRoot } from '../e2e/harness';
import { runCli } from '../fixtures/run-cli';

let dir: string;
let core: Core;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-report-lines-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const skillLine = (name: string, body = `Steps for ${name}.`) =>
  JSON.stringify({ name, description: `About ${name}.`, body });
const names = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

function dump(file: string, lines: string[]): string {
  const at = path.join(dir, file);
  writeFileSync(at, lines.join('\n') + '\n');
  return at;
}

async function importJob(at: string): Promise<{ result: ImportReport; jobId: string }> {
  const job = await core['library.import']({ path: at });
  const done = await core['jobs.wait']({ id: job.id });
  expect(done.status).toBe('done');
  return { result: done.result as ImportReport, jobId: job.id };
}

describe('import report lines', () => {
  it('a job lists the first 100 lines of each list and counts them all; the library keeps every line once', async () => {
    const good = names('skill', 150);
    // "Bad Name" breaks the name format: each such line is rejected with a reason.
    const bad = names('Bad Name', 120);
    const { result, jobId } = await importJob(
      dump(
        'a.jsonl',
        [...good, ...bad].map((n) => skillLine(n)),
      ),
    );
    expect(result.added.map((a) => a.name)).toEqual(good.slice(0, 100));
    expect(result.rejected).toHaveLength(100);
    expect(result.counts).toMatchObject({ added: 150, rejected: 120, unchanged: 0, conflicts: 0 });
    expect(result.shownAtMost).toBe(100);

    // The job's row holds that short result, not a second copy of the report.
    const db = core.context.db;
    const stored = db.prepare('SELECT result FROM jobs WHERE id = ?').pluck().get(jobId) as string;
    expect(JSON.parse(stored)).toEqual(result);
    expect(db.prepare('SELECT count(*) FROM import_report_entries').pluck().get()).toBe(270);

    const full = (await core['library.importReport']({ sourceId: result.sourceId }))!;
    expect(full.added.map((a) => a.name)).toEqual(good);
    expect(full.rejected.map((r) => r.relPath)).toEqual(bad);
    expect(full.rejected.every((r) => r.issues.some((i) => i.rule === 'name-format'))).toBe(true);
    expect(full.shownAtMost).toBeUndefined();

    const some = (await core['library.importReport']({ sourceId: result.sourceId, shown: 10 }))!;
    expect(some.added).toEqual(full.added.slice(0, 10));
    expect([some.counts?.added, some.counts?.rejected, some.shownAtMost]).toEqual([150, 120, 10]);
    await expect(
      core['library.importReport']({ sourceId: result.sourceId, shown: -1 }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });

    // Re-imported unchanged: every skill is counted unchanged, and the source's latest report says so.
    const again = await importJob(
      dump(
        'a.jsonl',
        [...good, ...bad].map((n) => skillLine(n)),
      ),
    );
    expect(again.result.counts).toMatchObject({ added: 0, unchanged: 150, rejected: 120 });
    expect((await core['library.importReport']({ sourceId: result.sourceId }))!.unchanged).toHaveLength(150);
  });

  it('reads a report stored whole as JSON before the lines had rows, and cuts it to what is asked', () => {
    const db = core.context.db;
    db.prepare(
      "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (9, 'jsonl', '/old.jsonl', 'old', 'then')",
    ).run();
    const old = {
      sourceId: 9,
      sourceUri: '/old.jsonl',
      kind: 'jsonl',
      total: 31,
      added: names('old', 30).map((n) => ({ name: n, relPath: n })),
      updated: [],
      unchanged: [],
      removed: [{ name: 'gone', relPath: 'gone' }],
      duplicates: [],
      rejected: [],
      warnings: [],
      conflicts: [],
      cancelled: false,
    };
    db.prepare(
      "INSERT INTO import_reports (source_id, report, counts, created_at) VALUES (9, ?, '{\"added\":30}', 'then')",
    ).run(JSON.stringify(old));
    expect(latestImportReport(db, 9)).toEqual({
      ...old,
      counts: expect.objectContaining({ added: 30, removed: 1 }),
    });
    const cut = latestImportReport(db, 9, 5)!;
    expect(cut.added).toEqual(old.added.slice(0, 5));
    expect([cut.removed.length, cut.counts?.added, cut.shownAtMost]).toEqual([1, 30, 5]);
  });

  it('a source keeps its last 20 reports, and the lines of older ones go with them', async () => {
    const at = dump(
      'small.jsonl',
      names('tiny', 3).map((n) => skillLine(n)),
    );
    for (let i = 0; i < 22; i++) await importJob(at);
    const db = core.context.db;
    expect(db.prepare('SELECT count(*) FROM import_reports').pluck().get()).toBe(20);
    // The first import's three "added" lines went with it; 19 re-imports of three unchanged skills stay.
    expect(db.prepare('SELECT list, count(*) AS n FROM import_report_entries GROUP BY list').all()).toEqual([
      { list: 'unchanged', n: 60 },
    ]);
  });

  it('the CLI says how many lines it did not list, and import-report (on this library) lists them all', async () => {
    const data = path.join(dir, 'cli-data');
    const shared = names('clash', 130);
    const first = await runCli(data, [
      'import',
      dump(
        'one.jsonl',
        shared.map((n) => skillLine(n)),
      ),
    ]);
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(data, [
      'import',
      dump(
        'two.jsonl',
        shared.map((n) => skillLine(n, 'Other steps.')),
      ),
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('conflicts 130');
    expect(second.stdout.match(/^ {2}conflict #/gm)).toHaveLength(100);
    expect(second.stdout).toContain(
      `… and 30 more conflicts: skill-curator --data ${data} import-report 2 lists them all`,
    );
    expect(second.stdout).toContain('many at once: conflicts resolve --all');
    const firstConflict = /^ {2}conflict #(\d+):/m.exec(second.stdout)![1]!;
    const kept = await runCli(data, ['conflicts', 'resolve', firstConflict, 'keep-both']);
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);

    const all = await runCli(data, ['import-report', '2']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.match(/^ {2}conflict #/gm)).toHaveLength(130);
    expect(all.stdout).not.toContain('more conflicts');
    // A conflict resolved since the import says so, instead of offering to resolve it again.
    expect(all.stdout).toMatch(
      new RegExp(`^ {2}conflict #${firstConflict}: .*\\(resolved: keep-both\\)$`, 'm'),
    );
    for (const json of [[], ['--json']]) {
      const none = await runCli(data, [...json, 'import-report', '7']);
      expect(none.code).toBe(1);
      expect(none.stdout + none.stderr).toContain('Source 7 has no import report');
    }
  });

  it('says so when an import that added nothing kept no report', async () => {
    const data = path.join(dir, 'cli-data');
    const bad = names('Bad Name', 120).map((n) => skillLine(n));
    const refused = await runCli(data, ['import', dump('bad.jsonl', bad)]);
    expect(refused.stdout).toContain('rejected 120');
    expect(refused.stdout).toContain('nothing was imported: every package was rejected');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      '… and 20 more rejected: this import added nothing, so its source and report were not kept; fix these and import again',
    );
  });

  it('stops quietly when its output is piped to a command that stops reading', async () => {
    const data = path.join(dir, 'cli-data');
    // 2,000 conflict lines: far more than a pipe holds, so the CLI writes after `head` has gone.
    const shared = names('many', 2000);
    await runCli(data, [
      'import',
      dump(
        'one.jsonl',
        shared.map((n) => skillLine(n)),
      ),
    ]);
    await runCli(data, [
      'import',
      dump(
        'two.jsonl',
        shared.map((n) => skillLine(n, 'Other steps.')),
      ),
    ]);
    const piped = spawnSync(
      'bash',
      [
        '-c',
        `set -o pipefail; node --import tsx src/cli/main.ts --data '${data}' import-report 2 | head -n 1`,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect([piped.status, piped.stderr]).toEqual([0, '']);
    expect(piped.stdout).toMatch(/^source 2: added 0/);
  });
});
