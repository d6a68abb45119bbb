// Where an import's peak memory is (issue 12): imports a source into a library as the scale bench's worker does, and
// samples the process every 20 ms. Prints one JSON line: wall and CPU seconds, the peak RSS, and at that peak the part
// that is anonymous memory, V8's heap (total and used), and memory outside the heap that V8 knows of (Buffers); the
// rest of the anonymous memory is native (SQLite's page cache, the load worker's isolate, allocator slack).
// Run: node --import tsx bench/import-memory.ts LIBRARY.db SOURCE [--no-worker] [--timeline] (--timeline: a line
// every 2 s on stderr with RSS, the heap and the import's progress; TIMELINE_MS=250 for a line every 250 ms)
import { readFileSync } from 'node:fs';
import { importSource } from '../src/core/skills/importer';
import { openDb } from '../src/core/store/db';

const [dbFile, source] = process.argv.slice(2) as [string, string];
const noWorker = process.argv.includes('--no-worker');
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const statusMiB = (text: string, key: string) =>
  Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024);

const db = openDb(dbFile);
const start = performance.now();
let atPeak: Record<string, number> = {};
let peakRss = 0;
const timeline = process.argv.includes('--timeline');
let lastLine = 0;
let progress = '';
const sample = setInterval(() => {
  const m = process.memoryUsage();
  const now = performance.now() - start;
  if (timeline && now - lastLine >= Number(process.env.TIMELINE_MS ?? 2000)) {
    lastLine = now;
    console.error(
      `${(now / 1000).toFixed(1)} s rss ${mib(m.rss)} heap ${mib(m.heapTotal)}/${mib(m.heapUsed)} ext ${mib(m.external)} ${progress}`,
    );
  }
  if (m.rss <= peakRss) return;
  peakRss = m.rss;
  const status = readFileSync('/proc/self/status', 'utf8');
  atPeak = {
    atSeconds: Math.round(performance.now() - start) / 1000,
    rssMiB: mib(m.rss),
    anonMiB: statusMiB(status, 'RssAnon'),
    heapTotalMiB: mib(m.heapTotal),
    heapUsedMiB: mib(m.heapUsed),
    externalMiB: mib(m.external),
  };
}, 20);
const cpu = process.cpuUsage();
const report = await importSource(
  { db, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } },
  { path: source },
  {
    signal: new AbortController().signal,
    report: ({ done, total, message }) => {
      progress = total > 0 ? `${done}/${total}` : (message ?? '').slice(0, 60);
    },
  },
  {
    settings: { folderMaxVisits: 1_000_000 },
    ...(noWorker ? { jsonlWorkerFromBytes: Number.MAX_SAFE_INTEGER } : {}),
  },
);
clearInterval(sample);
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    seconds: (performance.now() - start) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakMiB: process.resourceUsage().maxRSS / 1024,
    atPeak,
    added: report.counts?.added,
  }),
);
db.close();
