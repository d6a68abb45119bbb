// Scale bench (issue 12): builds 1k, 10k and 68k libraries from the zjunlp skills and prints each row of the issue's
// table with the reference measured in the same run, as ratios, and the growth from the smallest to the largest size.
// Run: npm run bench:scale [-- --sizes 1k,10k] [--no-recall] [--no-folder] [--no-lexical]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureFirstUse } from './lexical-stats';
import { leadRows, type ScaleRow } from './scale/lead-rows';
import { synthesise, type SynthLibrary } from './scale/synth';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1k,10k,68k' },
    'no-recall': { type: 'boolean', default: false },
    'no-folder': { type: 'boolean', default: false },
    'no-lexical': { type: 'boolean', default: false },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills/skills');
const sampleLibrary = path.join(repoRoot, 'resources/sample-library');
const sizes = args.sizes
  .split(',')
  .map((s) => Math.round(Number(s.replace(/k$/i, '')) * (/k$/i.test(s) ? 1000 : 1)));

/** What the workers print (each task fills its own fields). */
type Figures = Record<
  | 'seconds'
  | 'cpuSeconds'
  | 'peakMiB'
  | 'fileMiB'
  | 'screen'
  | 'statsSources'
  | 'refCounts'
  | 'warned'
  | 'unfiltered'
  | 'openConflicts'
  | 'conflicts'
  | 'conflictsWhole'
  | 'searchP95'
  | 'refSearchP95'
  | 'recallAt30',
  number
>;

function worker(...argv: string[]): Figures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'scale/worker.ts'), ...argv],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as Figures;
}

const f1 = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const row = (
  p: string,
  now: number,
  unit: string,
  ref: number | null,
  target: number | null,
  targetText = target === null ? '' : `<= ${f1(target)} ${unit}`,
): ScaleRow => ({
  path: p,
  now: `${f1(now)} ${unit}`,
  reference: ref === null ? '' : `${f1(ref)} ${unit}`,
  ratio: ref === null ? null : now / ref,
  target: targetText,
  met: target === null ? null : now <= target,
  value: now,
});

async function measure(lib: SynthLibrary): Promise<ScaleRow[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  try {
    const ours = path.join(dir, 'library.db');
    const refDb = path.join(dir, 'reference.db');
    const ref = worker('reference', refDb, lib.jsonl);
    const first = worker('import', ours, lib.jsonl);
    const again = worker('import', ours, lib.jsonl);
    const textMiB = lib.textBytes / 1024 / 1024;
    const rows = [
      row('import from JSONL, time', first.seconds, 's', ref.seconds, 1.5 * ref.seconds, '<= 1.5x reference'),
      row('import from JSONL, CPU time', first.cpuSeconds, 's', ref.cpuSeconds, null),
      row('import from JSONL, peak memory', first.peakMiB, 'MiB', ref.peakMiB, 300),
      row('re-import, nothing changed', again.seconds, 's', null, 10),
    ];
    if (!args['no-folder']) {
      const tree = worker('import', path.join(dir, 'tree.db'), lib.folder);
      rows.push(row('import as a folder tree (ref: JSONL)', tree.seconds, 's', first.seconds, null));
      rows.push(row('import as a folder tree, peak memory', tree.peakMiB, 'MiB', ref.peakMiB, 300));
    }
    const r = worker('reads', ours, refDb);
    rows.push(
      row('stats + sources', r.statsSources, 'ms', r.refCounts, null),
      row('Library screen load (stats+sources+page)', r.screen, 'ms', null, 100),
      row('list page "has warnings" (ref: unfiltered)', r.warned, 'ms', r.unfiltered, null),
      row(
        `open conflicts listed, ${r.openConflicts} (ref: each read whole)`,
        r.conflicts,
        'ms',
        r.conflictsWhole,
        null,
      ),
      row('keyword search p95, limit 200', r.searchP95, 'ms', r.refSearchP95, 100),
      row('library file (ref: SKILL.md text)', first.fileMiB, 'MiB', textMiB, 1.3 * textMiB, '<= 1.3x text'),
    );
    if (!args['no-recall']) {
      const small = worker('recall', path.join(dir, 'sample.db'), sampleLibrary);
      const big = worker('recall', ours, sampleLibrary);
      rows.push({
        ...row(
          'lexical recall@30, sample tasks (ref: 48 skills)',
          100 * big.recallAt30,
          '%',
          100 * small.recallAt30,
          null,
        ),
        target: '>= 90 %',
        met: big.recallAt30 >= 0.9,
        value: null,
      });
    }
    if (!args['no-recall'] && !args['no-lexical']) {
      // The recall worker imported the sample library into ours: the first offline selection of a sample task, on the
      // persisted statistics against the whole library held in memory (every library's path before).
      const f = measureFirstUse(ours, false);
      rows.push(
        row('lexical statistics, build from none (CPU)', f.statsBuild!.cpuSeconds, 's', null, null),
        row('first lexical recall (CPU)', f.recallStats!.cpuSeconds, 's', null, null),
        row(
          'first offline selection, CPU (ref: in memory)',
          f.selectStats!.cpuSeconds,
          's',
          f.selectMemory!.cpuSeconds,
          null,
        ),
        row(
          'first offline selection, peak (ref: in memory)',
          f.selectStats!.peakMiB,
          'MiB',
          f.selectMemory!.peakMiB,
          null,
        ),
      );
    }
    for (const measureLead of leadRows) rows.push(...(await measureLead(lib, ours)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(n: number, rows: ScaleRow[]): void {
  console.log(`\n## ${n} skills`);
  console.log('| path | now | reference | ratio | target | met |\n|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.path} | ${r.now} | ${r.reference || '-'} | ${r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`} | ${r.target || '-'} | ${r.met === null ? '-' : r.met ? 'yes' : 'NO'} |`,
    );
}

const results = new Map<number, ScaleRow[]>();
for (const n of sizes) {
  const lib = await synthesise(zjunlp, n);
  const rows = await measure(lib);
  results.set(n, rows);
  print(n, rows);
}
if (sizes.length > 1) {
  const [a, b] = [Math.min(...sizes), Math.max(...sizes)];
  console.log(`\n## growth ${a} -> ${b} skills (x${(b / a).toFixed(1)}; linear or better: growth <= that)`);
  for (const r of results.get(b)!) {
    const small = results.get(a)!.find((s) => s.path === r.path);
    if (r.value === null || !small?.value) continue;
    const g = r.value / small.value;
    console.log(
      `${r.path.padEnd(48)} x${g.toFixed(1)} ${g <= (b / a) * 1.1 ? 'linear or better' : 'WORSE than linear'}`,
    );
  }
}
