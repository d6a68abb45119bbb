// Quality and speed of the offline preset (lexical recall + lexical cross-scorer) on labelled tasks we wrote down:
// the sample tasks over the sample library (alone, and with the zjunlp collection imported beside it) and the zjunlp
// tasks over the zjunlp collection. Hand-typed task parses come from the label files; the sample library gets its
// reviewed states (resources/sample-states.jsonl), the zjunlp collection resources/zjunlp-states.jsonl.
// Prints one table: per task set and part (all, train, held-out: bench/offline-targets.ts), full's Hit@1 against the
// recall's own top-1 (dense@1) and no-parse@1, stage coverage against the ranked baselines at full's mean answer
// size, precision, and whether issue 10's targets are met; then ms per selection at 600 skills and the demo's answer.
// Every set is run with the product's scorer (v6); --scorer v6,v4 adds the one before it (no sub-word evidence). The
// routing and no-fit sets (issue 26) add plain BM25 over name + description as a reference, abstentions and a sweep
// of the abstain threshold.
// With --calibration FILE (a fit from bench/fit-lexical-calibration.ts, e.g. bench/fitted-lexical/calibration-v5.json)
// every set is also run with that fitted cross-scorer (bench/fitted-lexical/scorer.ts): same tasks, same run, one
// table (docs/METHOD-notes.md note 32). --scorer v6|v4|v5 runs one of them only.
// Run: npm run bench:offline [-- --only sample,sample+zjunlp,zjunlp,routing,no-fit] [--scorer v6,v4] [--calibration FILE]
//      [--no-zjunlp-states] [--detail] [--json] [--abstain=T] [--body-share=X|fielded] [--time-library FILE]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importLabelSet } from '../src/core/eval/label-store';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { runEval, type EvalDeps } from '../src/core/eval/run-eval';
import {
  createLexicalCrossEncoder,
  lexicalCrossEncoderId,
  lexicalCrossEncoderV4Id,
} from '../src/core/models/lexical/lexical-cross-encoder';
import { createFittedLexicalCrossEncoder, type FittedCalibration } from './fitted-lexical/scorer';
import { lexicalRecall, lexicalRecallEngine } from '../src/core/models/lexical/lexical-recall';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { importSource } from '../src/core/skills/importer';
import { importStatesFile } from '../src/core/states/import-states';
import { openDb, type Db } from '../src/core/store/db';
import type { VariantSummary } from '../src/shared/api/evaluation';
import { heldOut, offlineTargets, parts, zjunlpImportSettings, type OfflineTargets } from './offline-targets';
import { PlainBm25 } from './plain-bm25';
import { getRun } from '../src/core/select/runs-store';
import { recallParams } from '../src/core/models/lexical/library-index';
import { OFFLINE_ABSTAIN_BELOW } from '../src/shared/presets';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    scorer: { type: 'string' },
    calibration: { type: 'string' },
    json: { type: 'boolean', default: false },
    /** Leave out resources/zjunlp-states.jsonl (hand-typed states for the ALFWorld, ScienceWorld, WebShop skills). */
    'no-zjunlp-states': { type: 'boolean', default: false },
    /** Also print every variant's figures per task set. */
    detail: { type: 'boolean', default: false },
    /** The abstain threshold on the best rho (default: the offline preset's, settings selection.abstainBelow). */
    abstain: { type: 'string' },
    /**
     * Also time recall + full on the routing tasks in this library file (e.g. a 68k library imported from
     * bench/scale/synth.ts's JSONL with the CLI), beside the 600-skill one.
     */
    'time-library': { type: 'string' },
    /** Try the recall with the body saturated apart at this share of a term's idf ('fielded': BM25F as before). */
    'body-share': { type: 'string' },
  },
});
const zjunlpStates = !args['no-zjunlp-states'];
if (args['body-share'] !== undefined)
  recallParams.bodyShare = args['body-share'] === 'fielded' ? null : Number(args['body-share']);
const abstainBelow = args.abstain === undefined ? OFFLINE_ABSTAIN_BELOW : Number(args.abstain);
const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const variants = ['full', 'no-parse', 'no-graph', 'no-split', 'dense'] as const;
type ScorerName = 'v6' | 'v4' | 'v5';
interface Scorer {
  name: ScorerName;
  fitted: FittedCalibration | null;
}
// The product's scorer (v6); with --scorer v6,v4 also the one before it (v4, without sub-word evidence), same run.
const chosenScorers = (args.scorer ?? 'v6').split(',');
const scorers: Scorer[] = [
  { name: 'v6' as const, fitted: null },
  { name: 'v4' as const, fitted: null },
  ...(args.calibration
    ? [
        {
          name: 'v5' as const,
          fitted: JSON.parse(readFileSync(args.calibration, 'utf8')) as FittedCalibration,
        },
      ]
    : []),
].filter((s) => chosenScorers.includes(s.name) || (s.name === 'v5' && args.calibration));
const encoder = (db: Db, sc: Scorer) =>
  sc.fitted
    ? createFittedLexicalCrossEncoder(db, sc.fitted)
    : createLexicalCrossEncoder(db, sc.name === 'v4' ? 'v4' : 'v6');
const scorerId = (sc: Scorer): string =>
  sc.fitted ? sc.fitted.id : sc.name === 'v4' ? lexicalCrossEncoderV4Id : lexicalCrossEncoderId;

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
  // Unlike the household sets (issue 26): single-skill routing queries over the other zjunlp collections, and
  // queries no skill of the library fits.
  { name: 'routing', libraries: [zjunlp], tasks: 'routing-tasks.jsonl' },
  { name: 'no-fit', libraries: [zjunlp], tasks: 'no-fit-tasks.jsonl' },
].filter((s) => !args.only || args.only.split(',').includes(s.name));

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
      lib === zjunlp ? { settings: zjunlpImportSettings } : {},
    );
  await importStatesFile(db, clock, { path: path.join(resources, 'sample-states.jsonl'), verify: true });
  if (zjunlpStates)
    await importStatesFile(db, clock, { path: path.join(resources, 'zjunlp-states.jsonl'), verify: true });
  return db;
}

function label(s: VariantSummary): string {
  return s.k ? `${s.variant}@${s.k}` : s.variant;
}

interface ScenarioResult {
  scenario: string;
  scorer: string;
  skills: number;
  tasks: number;
  recallAtK: number;
  engines: { recall: string; crossEncoder: string };
  targets: (OfflineTargets & { plainBm25Top1: number; recallAt30: number })[];
  rows: { variant: string; precision: number; coverage: number; f1: number; size: number; ms: number }[];
  mug?: string[];
  /** Per task of `full`: the best candidate's rho, whether the task has gold skills, and whether it is held out. */
  bestRho: { rho: number; served: boolean; heldOut: boolean }[];
}

async function runScenario(s: Scenario, sc: Scorer): Promise<ScenarioResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-offline-'));
  const db = await openLibrary(dir, s.libraries);
  try {
    const size = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    const text = readFileSync(path.join(resources, s.tasks), 'utf8');
    const setId = importLabelSet(db, { name: s.tasks, text }, clock()).set.id;
    const report = await runEval(
      evalDeps(db, sc),
      { setId, variants: [...variants], k: [1, 2] },
      { signal: new AbortController().signal, report: noop },
    );
    const items = parseLabelJsonl(text);
    const mug = report.tasks.find((t) => t.variant === 'full' && t.itemId === 'hh-01');
    const plain = new PlainBm25(
      db.prepare('SELECT name, description FROM skills').all() as { name: string; description: string }[],
    );
    const line = new Map(items.map((item, i) => [item.id, i]));
    const recallOf = new Map(
      report.tasks.filter((t) => t.variant === 'full').map((t) => [t.itemId, t.recallAtK]),
    );
    const inPart = (id: string, part: (typeof parts)[number]): boolean =>
      part === 'all' || heldOut(line.get(id)!) === (part === 'held-out');
    const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const referenceFigures = (part: (typeof parts)[number]) => {
      const served = items.filter((i) => i.gold.length > 0 && inPart(i.id, part));
      return {
        plainBm25Top1: mean(
          served.map((i) => {
            const top = plain.top(i.task, 1)[0];
            return top !== undefined && [...i.gold, ...(i.groups ?? []).flat()].includes(top) ? 1 : 0;
          }),
        ),
        recallAt30: mean(served.map((i) => recallOf.get(i.id) ?? 0)),
      };
    };
    return {
      scenario: s.name,
      scorer: sc.name,
      skills: size,
      tasks: items.length,
      recallAtK: report.recallAtK,
      engines: { recall: lexicalRecallEngine, crossEncoder: scorerId(sc) },
      targets: parts.map((part) => ({ ...offlineTargets(report, items, part), ...referenceFigures(part) })),
      rows: report.summary.map((x) => ({
        variant: label(x),
        precision: x.precision,
        coverage: x.stageCoverage,
        f1: x.f1,
        size: x.meanAnswerSize,
        ms: x.msPerTask,
      })),
      ...(mug ? { mug: mug.answer } : {}),
      bestRho: report.tasks
        .filter((t) => t.variant === 'full' && t.selectionRunId !== null)
        .map((t) => ({
          rho: getRun(db, t.selectionRunId!).trace.abstention?.bestRho ?? Number.NEGATIVE_INFINITY,
          served: items[line.get(t.itemId)!]!.gold.length > 0,
          heldOut: heldOut(line.get(t.itemId)!),
        })),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function evalDeps(db: Db, sc: Scorer): EvalDeps {
  return {
    db,
    recall: (q, K) => lexicalRecall(db, q, K).map((h) => ({ skillId: h.skillId, score: h.score })),
    recallModel: lexicalRecallEngine,
    scorer: crossEncoderScoreProvider(encoder(db, sc)),
    abstainBelow,
    clock,
  };
}

/**
 * How the abstain threshold was chosen: per set and split, the share of tasks whose best rho falls below each
 * threshold (no-fit tasks: right abstentions; the others: false ones). From `full`'s traces of the same run.
 */
function printAbstainSweep(results: readonly ScenarioResult[]): void {
  const thresholds = [-2, -1.5, -1.25, -1, -0.9, -0.8, -0.7, -0.6, -0.5, 0, 1];
  console.log(`\nabstain sweep (set threshold ${abstainBelow}): share of tasks abstained at each threshold`);
  console.log(`set           split    kind  ${thresholds.map((t) => String(t).padStart(6)).join('')}`);
  for (const r of results)
    for (const split of ['train', 'held-out'] as const)
      for (const served of [true, false]) {
        const rows = r.bestRho.filter((b) => b.served === served && b.heldOut === (split === 'held-out'));
        if (rows.length === 0) continue;
        const shares = thresholds.map((t) => rows.filter((b) => b.rho < t).length / rows.length);
        console.log(
          `${r.scenario.padEnd(13)} ${split.padEnd(8)} ${served ? 'false' : 'right'} ${shares.map((x) => pct(x).padStart(6)).join('')}`,
        );
      }
}

/**
 * A folder of copies of zjunlp skills under new names, enough to bring the sample library and the zjunlp collection
 * to `total` skills: only for timing, so the quality figures never see them.
 */
function paddingLibrary(dir: string, have: number, total: number): string {
  const out = path.join(dir, 'padding');
  const files = (readdirSync(zjunlp, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === 'SKILL.md')
    .sort();
  for (const [i, f] of files.slice(0, Math.max(0, total - have)).entries()) {
    // The importer wants the folder named as the skill.
    const name = `${path.basename(path.dirname(f))}-copy-${i}`;
    const text = readFileSync(path.join(zjunlp, f), 'utf8').replace(/^name:\s*.+$/m, `name: ${name}`);
    mkdirSync(path.join(out, name), { recursive: true });
    writeFileSync(path.join(out, name, 'SKILL.md'), text);
  }
  return out;
}

/**
 * Recall + one `full` selection per task: the first one alone (it builds the library's index), then the mean of all
 * of them again, wall and CPU (on a shared machine CPU time is the steadier figure).
 */
async function timeSelections(
  db: Db,
  tasks: readonly { task: string; parse?: { subtasks: string[]; states: string[] } }[],
  scorer: ReturnType<typeof crossEncoderScoreProvider>,
  abstain?: number,
): Promise<{ firstMs: number; meanMs: number; cpuMs: number }> {
  const select = async (t: (typeof tasks)[number]): Promise<void> => {
    const { input } = await recallCandidates(
      t.task,
      t.parse ?? null,
      30,
      (q, k) => lexicalRecall(db, q, k),
      (ids) => loadSkillsForSelection(db, ids),
    );
    await selectSkills(input, scorer, { variant: 'full', abstainBelow: abstain });
  };
  let start = process.hrtime.bigint();
  await select(tasks[0]!);
  const firstMs = ms(start);
  start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (const t of tasks) await select(t);
  const used = process.cpuUsage(cpu);
  return {
    firstMs,
    meanMs: ms(start) / tasks.length,
    cpuMs: (used.user + used.system) / 1000 / tasks.length,
  };
}

/** ms of recall + one `full` selection with fresh scores, per sample task, at `total` skills; the index build apart. */
async function timeAt(
  total: number,
  sc: Scorer,
): Promise<{ skills: number; buildMs: number; meanMs: number; cpuMs: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-offline-time-'));
  const sample = path.join(resources, 'sample-library');
  const db = await openLibrary(dir, [sample, zjunlp]);
  try {
    const count = (): number => db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    if (count() < total)
      await importSource(
        { db, clock, logger: { info: noop, warn: noop } },
        { path: paddingLibrary(dir, count(), total) },
        { signal: new AbortController().signal, report: noop },
      );
    const skills = count();
    const tasks = parseLabelJsonl(readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8'));
    const t = await timeSelections(db, tasks, crossEncoderScoreProvider(encoder(db, sc)));
    return { skills, buildMs: t.firstMs, meanMs: t.meanMs, cpuMs: t.cpuMs };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** recall + full per routing task in a library file as it is (nothing imported): the large-library figure. */
async function timeLibraryFile(
  file: string,
): Promise<{ skills: number; tasks: number; firstMs: number; meanMs: number; cpuMs: number }> {
  const db = openDb(file);
  try {
    const tasks = parseLabelJsonl(readFileSync(path.join(resources, 'routing-tasks.jsonl'), 'utf8')).slice(
      0,
      30,
    );
    const t = await timeSelections(
      db,
      tasks,
      crossEncoderScoreProvider(encoder(db, scorers[0]!)),
      abstainBelow,
    );
    return {
      skills: db.prepare('SELECT count(*) FROM skills').pluck().get() as number,
      tasks: tasks.length,
      ...t,
    };
  } finally {
    db.close();
  }
}

function printTable(results: readonly ScenarioResult[]): void {
  console.log(
    `engines: ${lexicalRecallEngine} + ${scorers.map((s) => `${s.name} = ${scorerId(s)}`).join(', ')}; states: sample${zjunlpStates ? ' + zjunlp' : ''}`,
  );
  console.log(
    "Hit@1: recall = the recall's own top-1, bm25 = plain BM25 over name + description (bench/plain-bm25.ts); " +
      "cover/prec/size of full and no-split; @size: the ranked baselines at full's size; " +
      'abst: no-fit tasks answered nothing; false: served tasks answered nothing; avoid: answered a near miss',
  );
  console.log(
    'task set      part     sc  tasks skills | R@30  | Hit@1 recall  bm25  full no-parse | cover full no-split dense@sz np@sz | prec full no-split | size full no-split | abst  false avoid | met',
  );
  for (const r of results)
    for (const t of r.targets)
      console.log(
        [
          `${r.scenario.padEnd(13)} ${t.part.padEnd(8)} ${r.scorer.padEnd(3)} ${String(t.tasks + t.noFitTasks).padStart(5)} ${String(r.skills).padStart(6)}`,
          `${pct(t.tasks ? t.recallAt30 : undefined)}`,
          `      ${pct(t.tasks ? t.recallTop1 : undefined)} ${pct(t.tasks ? t.plainBm25Top1 : undefined)} ${pct(t.tasks ? t.fullTop1 : undefined)}    ${pct(t.tasks ? t.noParseTop1 : undefined)}`,
          `      ${pct(t.tasks ? t.fullCoverage : undefined)}    ${pct(t.tasks ? t.noSplitCoverage : undefined)}    ${pct(t.tasks ? t.denseCoverageAtSize : undefined)} ${pct(t.tasks ? t.noParseCoverageAtSize : undefined)}`,
          `     ${pct(t.tasks ? t.fullPrecision : undefined)}    ${pct(t.tasks ? t.noSplitPrecision : undefined)}`,
          `      ${t.tasks ? t.fullSize.toFixed(2) : '   -'}     ${t.tasks ? t.noSplitSize.toFixed(2) : '   -'}`,
          `${pct(t.noFitTasks ? t.fullAbstainedOnNoFit : undefined)} ${pct(t.tasks ? t.fullFalseAbstentions : undefined)} ${pct(t.tasks ? t.fullAvoidedAnswered : undefined)}`,
          ` ${t.met ? 'yes' : 'NO'}`,
        ].join(' |'),
      );
}

function printDetail(r: ScenarioResult): void {
  console.log(
    `\n== ${r.scenario} (${r.scorer}): ${r.tasks} tasks over ${r.skills} skills; Recall@30 ${pct(r.recallAtK)} %`,
  );
  console.log('   variant      prec   cover  F1     size  ms/sel');
  for (const row of r.rows)
    console.log(
      `   ${row.variant.padEnd(11)} ${pct(row.precision)}  ${pct(row.coverage)}  ${pct(row.f1)}  ${row.size.toFixed(2)}  ${row.ms.toFixed(1).padStart(6)}`,
    );
}

const results: ScenarioResult[] = [];
for (const s of scenarios) for (const sc of scorers) results.push(await runScenario(s, sc));
// Timed twice in turn (v6, v4, v6, v4; v5 too with --calibration): the machine is shared, so compare within the run.
const timings: { scorer: string; skills: number; buildMs: number; meanMs: number; cpuMs: number }[] = [];
for (let round = 0; round < 2; round++)
  for (const sc of scorers) timings.push({ scorer: sc.name, ...(await timeAt(600, sc)) });
if (args['time-library']) {
  const large = await timeLibraryFile(args['time-library']);
  console.log(
    `ms per selection (recall + full, fresh scores, ${large.tasks} routing tasks) in ${args['time-library']}: ${large.skills} skills, ${large.meanMs.toFixed(0)} ms wall, ${large.cpuMs.toFixed(0)} ms CPU; first ${large.firstMs.toFixed(0)} ms`,
  );
}
if (args.json) console.log(JSON.stringify({ results, timings }, null, 2));
else {
  printTable(results);
  for (const timing of timings)
    console.log(
      `${timing.scorer}: ms per selection (recall + full, fresh scores) at ${timing.skills} skills: ${timing.meanMs.toFixed(1)} ms wall, ${timing.cpuMs.toFixed(1)} ms CPU (target < 50); first selection, building the index: ${timing.buildMs.toFixed(0)} ms`,
    );
  for (const r of results)
    if (r.mug)
      console.log(
        `demo "put a hot mug in the coffee machine" (full, ${r.scenario}, ${r.scorer}): ${r.mug.join(' -> ')}`,
      );
  printAbstainSweep(results);
  if (args.detail) for (const r of results) printDetail(r);
}
