// Quality and speed of the offline preset (lexical recall + lexical cross-scorer) on labelled tasks we wrote down:
// the sample tasks over the sample library (alone, and with the zjunlp collection imported beside it) and the zjunlp
// tasks over the zjunlp collection. Hand-typed task parses come from the label files; the sample library gets its
// reviewed states (resources/sample-states.jsonl). Prints, per variant and k: Hit@1, precision, stage coverage, F1,
// mean answer size, ms per selection; then the targets of issue 10 item 3.
// Run: npm run bench:offline [-- --only sample|sample+zjunlp|zjunlp] [--zjunlp-states] [--json]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importLabelSet } from '../src/core/eval/label-store';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { runEval, type EvalDeps } from '../src/core/eval/run-eval';
import {
  createLexicalCrossEncoder,
  lexicalCrossEncoderId,
} from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall, lexicalRecallEngine } from '../src/core/models/lexical/lexical-recall';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { importSource } from '../src/core/skills/importer';
import { importStatesFile } from '../src/core/states/import-states';
import { openDb, type Db } from '../src/core/store/db';
import type { EvalReport, VariantSummary } from '../src/shared/api/evaluation';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
    /** Also apply resources/zjunlp-states.jsonl (hand-typed states for the ALFWorld, ScienceWorld, WebShop skills). */
    'zjunlp-states': { type: 'boolean', default: false },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const variants = ['full', 'no-parse', 'no-graph', 'no-split', 'dense'] as const;

interface Scenario {
  name: string;
  libraries: string[];
  tasks: string;
}
const scenarios: Scenario[] = [
  { name: 'sample', libraries: [path.join(resources, 'sample-library')], tasks: 'sample-tasks.jsonl' },
  {
    name: 'sample+zjunlp',
    libraries: [path.join(resources, 'sample-library'), zjunlp],
    tasks: 'sample-tasks.jsonl',
  },
  { name: 'zjunlp', libraries: [zjunlp], tasks: 'zjunlp-tasks.jsonl' },
].filter((s) => !args.only || s.name === args.only);

const noop = (): void => {};
const clock = (): Date => new Date();
const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const pct = (x: number | undefined): string => (x === undefined ? '   -' : (100 * x).toFixed(1).padStart(5));

async function openLibrary(dir: string, libraries: string[]): Promise<Db> {
  const db = openDb(path.join(dir, 'library.db'));
  for (const lib of libraries)
    await importSource(
      { db, clock, logger: { info: noop, warn: noop } },
      { path: lib },
      {
        signal: new AbortController().signal,
        report: noop,
      },
    );
  await importStatesFile(db, clock, { path: path.join(resources, 'sample-states.jsonl'), verify: true });
  if (args['zjunlp-states'])
    await importStatesFile(db, clock, { path: path.join(resources, 'zjunlp-states.jsonl'), verify: true });
  return db;
}

/** Mean ms of recall + one `full` selection with fresh scores, per task; the first call (index build) apart. */
async function timeSelections(
  db: Db,
  tasksFile: string,
): Promise<{ firstMs: number; meanMs: number; recallMs: number }> {
  const tasks = parseLabelJsonl(readFileSync(path.join(resources, tasksFile), 'utf8'));
  const scorer = crossEncoderScoreProvider(createLexicalCrossEncoder(db));
  const recall = (q: string, k: number) =>
    lexicalRecall(db, q, k).map((h) => ({ skillId: h.skillId, score: h.score }));
  let start = process.hrtime.bigint();
  const first = await recallCandidates(tasks[0]!.task, tasks[0]!.parse ?? null, 30, recall, (ids) =>
    loadSkillsForSelection(db, ids),
  );
  await selectSkills(first.input, scorer, { variant: 'full' });
  const firstMs = ms(start);
  let total = 0;
  let recallTotal = 0;
  for (const t of tasks) {
    start = process.hrtime.bigint();
    const { input } = await recallCandidates(t.task, t.parse ?? null, 30, recall, (ids) =>
      loadSkillsForSelection(db, ids),
    );
    recallTotal += ms(start);
    await selectSkills(input, scorer, { variant: 'full' });
    total += ms(start);
  }
  return { firstMs, meanMs: total / tasks.length, recallMs: recallTotal / tasks.length };
}

function label(s: VariantSummary): string {
  return s.k ? `${s.variant}@${s.k}` : s.variant;
}

/** Coverage of a ranked variant at answer size `size`, interpolated between its k = 1 and k = 2 rows. */
function coverageAt(report: EvalReport, variant: string, size: number): number {
  const at = (k: number) => report.summary.find((s) => s.variant === variant && s.k === k)!.stageCoverage;
  const t = Math.min(1, Math.max(0, size - 1));
  return at(1) + t * (at(2) - at(1));
}

interface ScenarioResult {
  scenario: string;
  skills: number;
  tasks: number;
  recallAtK: number;
  engines: { recall: string; crossEncoder: string };
  rows: {
    variant: string;
    hitAt1?: number;
    precision: number;
    coverage: number;
    f1: number;
    size: number;
    ms: number;
  }[];
  targets: Record<
    | 'fullTop1'
    | 'recallTop1'
    | 'fullCoverage'
    | 'denseCoverageAtSize'
    | 'noParseCoverageAtSize'
    | 'fullPrecision',
    number
  >;
  timing: { firstMs: number; meanMs: number; recallMs: number };
  mug?: string[];
}

async function runScenario(s: Scenario): Promise<ScenarioResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-offline-'));
  const db = await openLibrary(dir, s.libraries);
  try {
    const size = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    const timing = await timeSelections(db, s.tasks);
    const deps: EvalDeps = {
      db,
      recall: (q, K) => lexicalRecall(db, q, K).map((h) => ({ skillId: h.skillId, score: h.score })),
      recallModel: lexicalRecallEngine,
      scorer: crossEncoderScoreProvider(createLexicalCrossEncoder(db)),
      clock,
    };
    const text = readFileSync(path.join(resources, s.tasks), 'utf8');
    const setId = importLabelSet(db, { name: s.tasks, text }, clock()).set.id;
    const report = await runEval(
      deps,
      { setId, variants: [...variants], k: [1, 2] },
      {
        signal: new AbortController().signal,
        report: noop,
      },
    );
    const fullRows = report.tasks.filter((t) => t.variant === 'full');
    const items = parseLabelJsonl(text);
    const acceptable = new Map(
      items.map((i) => [i.id, new Set([...i.gold, ...(i.groups ?? []).flat()])] as const),
    );
    const fullTop1 =
      fullRows.filter((t) => t.answer.length > 0 && acceptable.get(t.itemId)!.has(t.answer[0]!)).length /
      fullRows.length;
    const full = report.summary.find((x) => x.variant === 'full')!;
    const denseHit = report.summary.find((x) => x.variant === 'dense' && x.k === 1)!.hitAt1!;
    const mug = fullRows.find((t) => t.itemId === 'hh-01');
    const result: ScenarioResult = {
      scenario: s.name,
      skills: size,
      tasks: items.length,
      recallAtK: report.recallAtK,
      engines: { recall: lexicalRecallEngine, crossEncoder: lexicalCrossEncoderId },
      rows: report.summary.map((x) => ({
        variant: label(x),
        hitAt1: label(x) === 'full' ? fullTop1 : x.hitAt1,
        precision: x.precision,
        coverage: x.stageCoverage,
        f1: x.f1,
        size: x.meanAnswerSize,
        ms: x.msPerTask,
      })),
      targets: {
        fullTop1,
        recallTop1: denseHit,
        fullCoverage: full.stageCoverage,
        denseCoverageAtSize: coverageAt(report, 'dense', full.meanAnswerSize),
        noParseCoverageAtSize: coverageAt(report, 'no-parse', full.meanAnswerSize),
        fullPrecision: full.precision,
      },
      timing,
      ...(mug ? { mug: mug.answer } : {}),
    };
    if (!args.json) print(result);
    return result;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(r: ScenarioResult): void {
  console.log(
    `\n== ${r.scenario}: ${r.tasks} tasks over ${r.skills} skills; Recall@30 ${pct(r.recallAtK)} %`,
  );
  console.log(`   engines: ${r.engines.recall} + ${r.engines.crossEncoder}`);
  console.log('   variant      Hit@1  prec   cover  F1     size  ms/sel');
  for (const row of r.rows)
    console.log(
      `   ${row.variant.padEnd(11)} ${pct(row.hitAt1)}  ${pct(row.precision)}  ${pct(row.coverage)}  ${pct(row.f1)}  ${row.size.toFixed(2)}  ${row.ms.toFixed(1).padStart(6)}`,
    );
  const t = r.targets;
  console.log(
    `   targets: full top-1 ${pct(t.fullTop1)} vs recall top-1 ${pct(t.recallTop1)}; coverage ${pct(t.fullCoverage)} vs dense ${pct(t.denseCoverageAtSize)} / no-parse ${pct(t.noParseCoverageAtSize)} at size ${r.rows[0]!.size.toFixed(2)}; precision ${pct(t.fullPrecision)}`,
  );
  console.log(
    `   timing: first selection (builds the index) ${r.timing.firstMs.toFixed(0)} ms; then recall ${r.timing.recallMs.toFixed(1)} ms + full selection = ${r.timing.meanMs.toFixed(1)} ms per task`,
  );
  if (r.mug) console.log(`   demo "put a hot mug in the coffee machine" (full): ${r.mug.join(' -> ')}`);
}

const results = [];
for (const s of scenarios) results.push(await runScenario(s));
if (args.json) console.log(JSON.stringify(results, null, 2));
