// First offline selection and first lexical recall in a large library (issue 12): the whole library in memory (the
// code path of libraries up to `sampledFrom.skills`, which was every library before) against the persisted statistics
// with FTS5 candidates and sampled backgrounds. Each figure in its own process, so each is a first: CPU seconds, wall,
// peak RSS; plus the build of the statistics and recall@30 on the sample tasks.
// Run: npx tsx bench/lexical-stats.ts <library.db with the sample library imported> [--json] [--no-memory-recall]
// (bench/scale.ts runs it on its 10k/68k libraries: rows "first lexical recall / offline selection").
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { createLexicalCrossEncoder } from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { sampledFrom } from '../src/core/models/lexical/library-index-cache';
import { refreshAll } from '../src/core/models/lexical/library-stats';
import { recallAtK, recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { openDb } from '../src/core/store/db';

const repoRoot = path.resolve(import.meta.dirname, '..');
const tasks = () =>
  parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));

export interface FirstUse {
  cpuSeconds: number;
  seconds: number;
  peakMiB: number;
  recallAt30?: number;
}

async function child(what: string, mode: string, file: string): Promise<FirstUse> {
  if (mode === 'memory') sampledFrom.skills = Number.POSITIVE_INFINITY;
  const db = openDb(file);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const task = tasks()[0]!;
  let recallAt30: number | undefined;
  if (what === 'stats') refreshAll(db);
  if (what === 'recall') lexicalRecall(db, task.task, 30);
  if (what === 'select') {
    const { input } = await recallCandidates(
      task.task,
      task.parse ?? null,
      30,
      (q, k) => lexicalRecall(db, q, k),
      (ids) => loadSkillsForSelection(db, ids),
    );
    await selectSkills(input, crossEncoderScoreProvider(createLexicalCrossEncoder(db)), { variant: 'full' });
  }
  const d = process.cpuUsage(cpu);
  const out: FirstUse = {
    cpuSeconds: (d.user + d.system) / 1e6,
    seconds: (performance.now() - t) / 1000,
    peakMiB: process.resourceUsage().maxRSS / 1024,
  };
  if (what !== 'stats') {
    const names = db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
    let sum = 0;
    for (const tk of tasks())
      sum += recallAtK(
        lexicalRecall(db, tk.task, 30).map((h) => names.get(h.skillId) as string),
        tk.gold,
      );
    recallAt30 = sum / tasks().length;
  }
  db.close();
  return { ...out, recallAt30 };
}

function run(what: string, mode: string, file: string): FirstUse {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--child', what, mode, file],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as FirstUse;
}

/**
 * In a copy of `library` (its statistics not built yet): the statistics' build, then the first recall and the first
 * selection with them and with the whole library in memory.
 */
export function measureFirstUse(library: string, memoryRecall = true): Record<string, FirstUse> {
  const copy = path.join(os.tmpdir(), `lexical-stats-${process.pid}.db`);
  copyFileSync(library, copy);
  const db = openDb(copy);
  // From none: the statistics a library imported before migration 041 (or by main's code) starts with.
  db.exec(`DELETE FROM lexical_skills; DELETE FROM lexical_terms;
    UPDATE lexical_totals SET skills = 0, sentences = 0,
      lengths = '{"plain":[0,0,0],"judged":[0,0,0],"sentences":0}'`);
  db.close();
  try {
    // The in-memory index is built by whichever comes first; its first recall is its build plus milliseconds.
    return {
      statsBuild: run('stats', 'stats', copy),
      ...(memoryRecall ? { recallMemory: run('recall', 'memory', copy) } : {}),
      recallStats: run('recall', 'stats', copy),
      selectMemory: run('select', 'memory', copy),
      selectStats: run('select', 'stats', copy),
    };
  } finally {
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  }
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  console.log(JSON.stringify(await child(argv[1]!, argv[2]!, argv[3]!)));
} else if (import.meta.filename === process.argv[1] && argv[0]) {
  const r = measureFirstUse(argv[0], !argv.includes('--no-memory-recall'));
  if (argv.includes('--json')) console.log(JSON.stringify(r));
  else
    for (const [k, v] of Object.entries(r))
      console.log(
        `${k.padEnd(13)} cpu ${v.cpuSeconds.toFixed(2)} s  wall ${v.seconds.toFixed(2)} s  peak ${v.peakMiB.toFixed(0)} MiB` +
          (v.recallAt30 === undefined ? '' : `  recall@30 ${(100 * v.recallAt30).toFixed(1)} %`),
      );
}
