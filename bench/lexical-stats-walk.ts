// How long the host's thread is held while a large library's lexical statistics are counted (the
// `library.lexical-stats` job): the job as it was (batches of 200, each re-reading the stale skills from the first
// id) against the walk in id windows with batches sized to a time slice (models/lexical/stats-walk.ts). Each run
// counts a fresh copy of the library from nothing, in its own process; figures: wall and CPU seconds of the count,
// the event loop's longest and p99 delay while it ran (what a UI request waits at worst), and the initial check of
// what is stale (a whole scan before, windows now).
// Run: npx tsx bench/lexical-stats-walk.ts <library.db> [--runs N] [--slices 25,40] [--json]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { refreshBatch, staleCount } from '../src/core/models/lexical/library-stats';
import { refreshInSlices, staleCountInWindows } from '../src/core/models/lexical/stats-walk';
import { openDb } from '../src/core/store/db';

type Way = 'batches-of-200' | `sliced-${number}ms`;
interface Figures {
  way: Way;
  skills: number;
  seconds: number;
  cpuSeconds: number;
  maxDelayMs: number;
  p99DelayMs: number;
  checkMaxDelayMs: number;
}

async function child(way: Way, file: string): Promise<Figures> {
  const db = openDb(file);
  db.exec(`DELETE FROM lexical_skills; UPDATE lexical_terms SET df = 0, sdf = 0;
    UPDATE lexical_totals SET skills = 0, sentences = 0,
      lengths = '{"plain":[0,0,0],"judged":[0,0,0],"sentences":0}' WHERE id = 1;`);
  const skills = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  // A synchronous hold shows up when the loop next turns: let it turn before reading the histogram.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  delay.enable();
  await settle();
  if (way === 'batches-of-200') staleCount(db);
  else await staleCountInWindows(db);
  await settle();
  delay.disable();
  const checkMaxDelayMs = delay.max / 1e6;
  delay.reset();
  const cpu = process.cpuUsage();
  const started = performance.now();
  delay.enable();
  await settle();
  if (way === 'batches-of-200') {
    while (refreshBatch(db, 200) > 0) await nextTurn();
  } else {
    await refreshInSlices(db, { sliceMs: Number(/\d+/.exec(way)![0]) });
  }
  await settle();
  delay.disable();
  const used = process.cpuUsage(cpu);
  const figures = {
    way,
    skills,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    maxDelayMs: delay.max / 1e6,
    p99DelayMs: delay.percentile(99) / 1e6,
    checkMaxDelayMs,
  };
  if (staleCount(db) !== 0) throw new Error(`${way}: skills left stale`);
  db.close();
  return figures;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '1' },
      /** Time slices of the walk to measure, comma-separated ms (the product's default is 25). */
      slices: { type: 'string', default: '25' },
      json: { type: 'boolean', default: false },
      child: { type: 'string' },
    },
  });
  if (values.child) {
    console.log(JSON.stringify(await child(values.child as Way, positionals[0]!)));
    return;
  }
  const slices = values.slices.split(',').map(Number);
  const source = positionals[0];
  if (!source) throw new Error('usage: npx tsx bench/lexical-stats-walk.ts <library.db> [--runs N] [--json]');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stats-walk-'));
  const rows: Figures[] = [];
  try {
    for (let run = 0; run < Number(values.runs); run++) {
      for (const way of ['batches-of-200', ...slices.map((ms) => `sliced-${ms}ms` as const)] as Way[]) {
        const file = path.join(dir, 'library.db');
        copyFileSync(source, file);
        const out = execFileSync(
          process.execPath,
          [...process.execArgv, import.meta.filename, '--child', way, file],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        rows.push(JSON.parse(out.trim().split('\n').pop()!) as Figures);
        rmSync(file, { force: true });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log(
    'way             skills   wall s   CPU s   longest hold ms   p99 hold ms   stale check, longest hold ms',
  );
  for (const r of rows)
    console.log(
      `${r.way.padEnd(15)} ${String(r.skills).padStart(6)} ${r.seconds.toFixed(1).padStart(8)} ${r.cpuSeconds
        .toFixed(1)
        .padStart(
          7,
        )} ${r.maxDelayMs.toFixed(0).padStart(17)} ${r.p99DelayMs.toFixed(0).padStart(13)} ${r.checkMaxDelayMs
        .toFixed(0)
        .padStart(30)}`,
    );
}

await main();
