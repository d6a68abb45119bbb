// One measurement of the scale bench, run in its own process so its peak memory is its own (each task loads only the
// modules it uses: an import's peak is that of a process that imports). Prints one JSON line.
//   import <db> <path>        the library's importer (JSONL or folder), fresh or re-import
//   reference <db> <jsonl>    raw better-sqlite3: stream lines, insert rows + FTS5, batches of 1,000
//   reads <db> <refdb>        Library screen reads and keyword search, on our library and the reference one
//   recall <db> <sample>      lexical recall@30 on the sample tasks, the sample library imported into <db>
import { median } from '../median';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { importSource } from '../../src/core/skills/importer';
import { openDb } from '../../src/core/store/db';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const [task, dbFile, input] = process.argv.slice(2) as [string, string, string];
const deps = (db: Database.Database) => ({
  db,
  clock: () => new Date(),
  logger: { info: () => {}, warn: () => {} },
});
const job = () => ({ signal: new AbortController().signal, report: () => {} });
const peakMiB = () => process.resourceUsage().maxRSS / 1024;
const since = (t: number) => performance.now() - t;
/** CPU seconds (user + system) this process spent since `t`: less swayed than wall time by other work on the machine. */
const cpuSince = (t: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1e6;
};
const p95 = (a: number[]) =>
  [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(0.95 * a.length))]!;

function fileMiB(db: Database.Database, file: string): number {
  db.pragma('wal_checkpoint(TRUNCATE)');
  return statSync(file).size / 1024 / 1024;
}

/** Natural-language queries: the sample tasks and their sub-tasks, as a user would type them. */
async function queries(): Promise<string[]> {
  const { parseLabelJsonl } = await import('../../src/core/eval/label-format');
  const tasks = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
  return tasks.flatMap((t) => [t.task, ...(t.parse?.subtasks ?? [])]).slice(0, 80);
}

async function ourImport(): Promise<object> {
  const db = openDb(dbFile);
  const t = performance.now();
  const cpu = process.cpuUsage();
  // A 68k tree has more folders than the default walk allows (a guard against hostile trees, not libraries).
  const r = await importSource(deps(db), { path: input }, job(), {
    settings: { folderMaxVisits: 1_000_000 },
  });
  const seconds = since(t) / 1000;
  const cpuSeconds = cpuSince(cpu);
  const counts = {
    total: r.total,
    added: r.counts?.added,
    unchanged: r.counts?.unchanged,
    rejected: r.counts?.rejected,
  };
  const out = { seconds, cpuSeconds, peakMiB: peakMiB(), fileMiB: fileMiB(db, dbFile), counts };
  db.close();
  return out;
}

async function referenceImport(): Promise<object> {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE skills (id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,
      front_matter TEXT NOT NULL, body TEXT NOT NULL, warnings TEXT NOT NULL DEFAULT '[]', source_id INTEGER NOT NULL DEFAULT 1);
    CREATE VIRTUAL TABLE ref_fts USING fts5(name, description, body, tokenize = 'porter unicode61');`);
  const insert = db.prepare('INSERT INTO skills (name, description, front_matter, body) VALUES (?, ?, ?, ?)');
  const index = db.prepare('INSERT INTO ref_fts (rowid, name, description, body) VALUES (?, ?, ?, ?)');
  const t = performance.now();
  const cpu = process.cpuUsage();
  let batch: Record<string, unknown>[] = [];
  const flush = db.transaction((rows: Record<string, unknown>[]) => {
    for (const { body, ...fm } of rows) {
      const id = insert.run(fm.name, fm.description, JSON.stringify(fm), body).lastInsertRowid;
      index.run(id, fm.name, fm.description, body);
    }
  });
  for await (const line of createInterface({ input: createReadStream(input) })) {
    if (line.trim() === '') continue;
    batch.push(JSON.parse(line) as Record<string, unknown>);
    if (batch.length === 1000) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  const out = {
    seconds: since(t) / 1000,
    cpuSeconds: cpuSince(cpu),
    peakMiB: peakMiB(),
    fileMiB: fileMiB(db, dbFile),
  };
  db.close();
  return out;
}

function timeMany(n: number, f: () => unknown): number[] {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    times.push(since(t));
  }
  return times;
}

async function reads(): Promise<object> {
  const { queryTerms, searchKeyword } = await import('../../src/core/search/keyword');
  const { getConflict, libraryStats, listConflicts, listSkills, listSources } =
    await import('../../src/core/store/library-repo');
  const { openConflictIds } = await import('../../src/core/store/conflicts-repo');
  const db = openDb(dbFile);
  const ref = new Database(input, { readonly: true });
  const screen = median(
    timeMany(5, () => {
      libraryStats(db);
      listSources(db);
      listSkills(db, { limit: 50 });
    }),
  );
  const statsSources = median(timeMany(5, () => (libraryStats(db), listSources(db))));
  const refCounts = median(
    timeMany(5, () =>
      ref.prepare("SELECT COUNT(*), SUM(warnings != '[]') FROM skills GROUP BY source_id").all(),
    ),
  );
  const warned = median(timeMany(5, () => listSkills(db, { hasWarnings: true, limit: 50 })));
  // The Library screen's conflicts panel (library.conflicts), against reading each open conflict whole.
  const openConflicts = listConflicts(db).length;
  const conflicts = median(timeMany(3, () => listConflicts(db)));
  const conflictsWhole = median(timeMany(3, () => openConflictIds(db).map((id) => getConflict(db, id))));
  const unfiltered = median(timeMany(5, () => listSkills(db, { limit: 50 })));
  const qs = await queries();
  const ours = qs.map((q) => median(timeMany(1, () => searchKeyword(db, { query: q, limit: 200 }))));
  const raw = ref.prepare('SELECT rowid FROM ref_fts WHERE ref_fts MATCH ? ORDER BY rank LIMIT 200');
  const refSearch = qs.map((q) =>
    median(
      timeMany(1, () =>
        raw.all(
          queryTerms(q)
            .map((w) => `"${w}"`)
            .join(' OR '),
        ),
      ),
    ),
  );
  db.close();
  ref.close();
  return {
    screen,
    statsSources,
    refCounts,
    warned,
    unfiltered,
    openConflicts,
    conflicts,
    conflictsWhole,
    searchP95: p95(ours),
    refSearchP95: p95(refSearch),
  };
}

async function recall(): Promise<object> {
  const { parseLabelJsonl } = await import('../../src/core/eval/label-format');
  const { lexicalRecall } = await import('../../src/core/models/lexical/lexical-recall');
  const { recallAtK } = await import('../../src/core/select/recall');
  const { listSkills } = await import('../../src/core/store/library-repo');
  const db = openDb(dbFile);
  await importSource(deps(db), { path: input }, job());
  const tasks = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
  const names = db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
  let sum = 0;
  const t = performance.now();
  for (const task of tasks) {
    const hits = lexicalRecall(db, task.task, 30);
    sum += recallAtK(
      hits.map((h) => names.get(h.skillId) as string),
      task.gold,
    );
  }
  const out = { recallAt30: sum / tasks.length, seconds: since(t) / 1000, skills: listSkills(db).total };
  db.close();
  return out;
}

const tasks: Record<string, () => object | Promise<object>> = {
  import: ourImport,
  reference: referenceImport,
  reads,
  recall,
};
console.log(JSON.stringify(await tasks[task]!()));
