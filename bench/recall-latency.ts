// Recall latency over a large vector index: exact brute force (vec0 KNN, and a scan of the stored floats) against the
// binary coarse pass + exact rescoring that dense recall uses, with overlap@30, build time and file size; then the
// time to index real recall texts with the hashing engine, extrapolated to 68k.
// Run: npx tsx bench/recall-latency.ts [--n 68000] [--dim 1024] [--queries 50] [--clustered]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createHashingEmbedder } from '../src/core/models/lexical/hashing-embedder';
import { denseKnn, exactDenseKnn } from '../src/core/search/dense';
import { buildVectorIndex } from '../src/core/search/vector-index';
import { writeVectors, type StoredVector } from '../src/core/search/vector-store';
import { importSource } from '../src/core/skills/importer';
import { openDb } from '../src/core/store/db';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '68000' },
    dim: { type: 'string', default: '1024' },
    queries: { type: 'string', default: '50' },
    clustered: { type: 'boolean', default: false },
  },
});
const N = Number(args.n);
const D = Number(args.dim);
const Q = Number(args.queries);
const K = 30;
const shortlists = [256, 512, 1024];
const repoRoot = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-recall-'));
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const pct = (a: number[], p: number) =>
  [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))]!;
const ms = (a: number[]) => `p50 ${pct(a, 0.5).toFixed(1)} ms, p95 ${pct(a, 0.95).toFixed(1)} ms`;
const now = () => performance.now();
// CPU time of this process in ms: on a machine shared with other work, wall time also counts the waits for a core.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** Runs f, recording its wall and CPU milliseconds. */
function timedRun<T>(f: () => T, wall: number[], cpus: number[]): T {
  const c = cpu();
  const t = now();
  const out = f();
  wall.push(now() - t);
  cpus.push(cpu() - c);
  return out;
}
const both = (wall: number[], cpus: number[]) => `wall ${ms(wall)} | cpu ${ms(cpus)}`;

// Seeded Gaussian vectors, so every run measures the same data.
let seed = 20260101;
const uniform = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), (seed + 0.5) / 4294967296);
const gauss = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = 1 / Math.sqrt(n);
  return v.map((x) => x * s);
}
const randomUnit = () => unit(Float32Array.from({ length: D }, gauss));
// Clustered data stands in for real embeddings, which crowd around topics: ~17 vectors per centre, queries near centres.
const centres = args.clustered ? Array.from({ length: Math.ceil(N / 17) }, randomUnit) : [];
const near = (c: Float32Array, spread: number) => unit(c.map((x) => x + spread * gauss()));
const dataVector = (i: number) => (args.clustered ? near(centres[i % centres.length]!, 0.035) : randomUnit());

try {
  const db = openDb(path.join(dir, 'vectors.db'));
  const stamp = new Date().toISOString();
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/bench', 'bench', ?)",
  ).run(stamp);
  db.transaction(() => {
    const ins = db.prepare(
      `INSERT INTO skills (id, name, description, front_matter, body_own, full_text_stored, source_id, rel_path, content_hash, created_at, updated_at)
       VALUES (?, ?, '', '{}', '', '', 1, ?, '', ?, ?)`,
    );
    for (let i = 1; i <= N; i++) ins.run(i, `s${i}`, `s${i}`, stamp, stamp);
  })();
  db.prepare(
    "INSERT INTO vector_index_state (id, model_id, dtype, dim, updated_at) VALUES (1, 'bench', 'fp32', ?, ?)",
  ).run(D, stamp);
  db.exec(`CREATE VIRTUAL TABLE bench_exact USING vec0(embedding float[${D}] distance_metric=cosine)`);
  const insExact = db.prepare('INSERT INTO bench_exact(rowid, embedding) VALUES (?, ?)');

  let buildMs = 0;
  let exactBuildMs = 0;
  for (let start = 1; start <= N; start += 1000) {
    const rows: StoredVector[] = [];
    for (let i = start; i < Math.min(N + 1, start + 1000); i++)
      rows.push({ skillId: i, modelId: 'bench', dtype: 'fp32', textHash: '', vector: dataVector(i) });
    let t = now();
    writeVectors(db, rows, stamp);
    buildMs += now() - t;
    t = now();
    db.transaction(() => rows.forEach((r) => insExact.run(BigInt(r.skillId), r.vector)))();
    exactBuildMs += now() - t;
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const fileBytes = statSync(path.join(dir, 'vectors.db')).size;
  const exactTableBytes =
    (db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'bench_exact%'").pluck().get() as
      number | null) ?? NaN;

  const queries = Array.from({ length: Q }, (_, i) =>
    args.clustered ? near(centres[(i * 7919) % centres.length]!, 0.035) : randomUnit(),
  );
  const t = now();
  denseKnn(db, 'bench', queries[0]!, K); // loads the coarse index into memory
  const loadMs = now() - t;

  const vec0Times: number[] = [];
  const vec0Cpu: number[] = [];
  const scanTimes: number[] = [];
  const scanCpu: number[] = [];
  const truth: Set<number>[] = [];
  const knn = db.prepare('SELECT rowid FROM bench_exact WHERE embedding MATCH ? AND k = ?').pluck();
  for (const [i, q] of queries.entries()) {
    truth.push(new Set(timedRun(() => knn.all(q, K) as number[], vec0Times, vec0Cpu)));
    if (i < 10) timedRun(() => exactDenseKnn(db, 'bench', q, K), scanTimes, scanCpu);
  }

  console.log(
    `data               ${N} x ${D}-d ${args.clustered ? 'clustered' : 'random'} unit vectors, ${Q} queries, k = ${K}`,
  );
  console.log(
    `build              ${(buildMs / 1000).toFixed(1)} s (floats + vec0 bit codes); vec0 float table for the baseline ${(exactBuildMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `file               ${mib(fileBytes)} in all; index without the baseline table ${mib(fileBytes - exactTableBytes)}`,
  );
  console.log(
    `coarse index load  ${loadMs.toFixed(0)} ms (once per index change), ${mib(N * (D / 8 + 8))} in memory`,
  );
  console.log(`exact vec0 KNN        ${both(vec0Times, vec0Cpu)}`);
  console.log(
    `exact float scan      ${both(scanTimes, scanCpu)} (vec_distance_cosine over skill_vectors, 10 queries)`,
  );
  for (const s of shortlists) {
    const times: number[] = [];
    const cpus: number[] = [];
    let overlap = 0;
    for (const [i, q] of queries.entries()) {
      const hits = timedRun(() => denseKnn(db, 'bench', q, K, {}, s), times, cpus);
      overlap += hits.filter((h) => truth[i]!.has(h.skillId)).length / K;
    }
    console.log(
      `coarse+rescore ${String(s).padStart(4)}   ${both(times, cpus)}, overlap@${K} vs exact ${(overlap / Q).toFixed(3)}`,
    );
  }
  console.log(
    `load average       ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  db.close();

  // Indexing real recall texts: the zjunlp skills, imported through the library importer, embedded by the hashing engine.
  const lib = openDb(path.join(dir, 'library.db'));
  await importSource(
    { db: lib, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } },
    { path: path.resolve(repoRoot, '../shared/data/zjunlp-skills') },
    { signal: new AbortController().signal, report: () => {} },
  );
  const embedder = createHashingEmbedder({ dim: D });
  const build = async () => {
    const t0 = now();
    const report = await buildVectorIndex({ db: lib }, embedder, {
      signal: new AbortController().signal,
      report: () => {},
    });
    return { sec: (now() - t0) / 1000, embedded: report.embedded };
  };
  const first = await build();
  // A larger sample for the steady rate: each real skill copied 9 more times, numbered so every recall text differs.
  lib.exec(`INSERT INTO skills (name, description, front_matter, body_own, full_text_stored, source_id, rel_path, content_hash, created_at, updated_at)
    SELECT s.name || '-' || n.value, s.description || ' (' || n.value || ')', '{}', '', '', s.source_id, s.rel_path || '#' || n.value, '', s.created_at, s.updated_at
    FROM skills s, json_each('[1,2,3,4,5,6,7,8,9]') n`);
  const copies = await build();
  const perText = copies.sec / copies.embedded;
  console.log(
    `index recall texts ${first.embedded} zjunlp skills in ${first.sec.toFixed(2)} s; ${copies.embedded} more (numbered copies) in ${copies.sec.toFixed(2)} s = ${(1 / perText).toFixed(0)} texts/s with ${embedder.id}, embedding + writes`,
  );
  console.log(
    `                   68,000 recall texts -> ${(68000 * perText).toFixed(0)} s (extrapolated from the copies)`,
  );
  lib.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
