// Imports the zjunlp skill set (633 packages) into a fresh temporary library and prints speed and size figures.
// Run: npx tsx bench/import-zjunlp.ts [path-to-zjunlp-skills]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importSource } from '../src/core/skills/importer';
import type { ImportReport } from '../src/core/skills/types';
import { openDb } from '../src/core/store/db';

const repoRoot = path.resolve(import.meta.dirname, '..');
const source = path.resolve(process.argv[2] ?? path.resolve(repoRoot, '../shared/data/zjunlp-skills'));
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
const dbFile = path.join(dir, 'library.db');
const db = openDb(dbFile);
const deps = { db, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } };
const job = () => ({ signal: new AbortController().signal, report: () => {} });

async function timed(): Promise<{ seconds: number; report: ImportReport }> {
  const start = process.hrtime.bigint();
  const report = await importSource(deps, { path: source }, job());
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, report };
}

try {
  const first = await timed();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const dbBytes = statSync(dbFile).size;
  const again = await timed();
  const r = first.report;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(`source             ${source}`);
  console.log(
    `packages           ${r.total} (imported ${r.counts?.added}, rejected ${r.counts?.rejected}, duplicates ${r.counts?.duplicates}, conflicts ${r.counts?.conflicts}, with warnings ${r.counts?.warnings})`,
  );
  console.log(
    `first import       ${first.seconds.toFixed(2)} s  = ${(r.total / first.seconds).toFixed(0)} packages/s, ${((r.counts?.added ?? 0) / first.seconds).toFixed(0)} imported skills/s`,
  );
  console.log(`database size      ${mib(dbBytes)} MiB (${dbBytes} bytes, after checkpoint)`);
  console.log(
    `re-import          ${again.seconds.toFixed(2)} s  = ${(again.report.total / again.seconds).toFixed(0)} packages/s; unchanged ${again.report.counts?.unchanged}, added ${again.report.counts?.added}, updated ${again.report.counts?.updated}, removed ${again.report.counts?.removed}`,
  );
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
