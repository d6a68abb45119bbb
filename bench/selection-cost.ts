// Cross-encoder pairs and prompt tokens per selection, per variant, on the sample tasks: without the exact cuts,
// with them, and with scores shared across the variants of a task. The answers must not change; the script checks it.
// Run: npx tsx bench/selection-cost.ts [--states none|synthetic] [--recall-k 30] [--encoder ./path/to/module.ts]
//   [--tasks N] [--time-only]
//   npx tsx bench/selection-cost.ts --json [--presets exact,fast,mixed,offline] [--repeat 3] [--task hh-01]
//     [--embed DIR] [--rerank DIR] [--rerank-kv DIR] [--threads 2]: per preset on one 3-stage task with K = 30
//     (bench/selection-presets.ts); add exact@start to the presets for the starting code's exact path as reference,
//     exact@q8 with --rerank-q8 DIR (an export with onnx/model_quantized.onnx) for what dtype auto runs on the CPU;
//     --skill-side-cache FILE (a file that need not exist) lets fast and mixed build the embedder's skill side once
//   --states synthetic gives every skill a precondition and completion (the worst case for alignment pairs; the
//   sample library ships unparsed). --encoder loads a module whose default export is `(db) => Promise<CrossEncoder>`
//   (e.g. the ONNX cross-encoder on the real-shape models) to time selections with it; the default is lexical.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { createLexicalCrossEncoder } from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import type { CrossEncoder } from '../src/core/models/ports';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import type { ScoreMemo } from '../src/core/select/scores';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { runPresetBench, runPresetChild, type BenchPreset, type PresetBenchArgs } from './selection-presets';
import type { SelectionInput, Variant } from '../src/core/select/trace-types';
import { openSampleLibrary } from './sample-library-db';
import type { Db } from '../src/core/store/db';

const { values: args } = parseArgs({
  options: {
    states: { type: 'string', default: 'none' },
    'recall-k': { type: 'string', default: '30' },
    encoder: { type: 'string' },
    /** Only the first N sample tasks (a real-shape model scores ~150 tokens/s on 2 cores). */
    tasks: { type: 'string' },
    /** Only the run with the exact cuts, to time a slow encoder; no before/after comparison. */
    'time-only': { type: 'boolean', default: false },
    /** Per-preset figures as JSON (with --presets; all presets by default). */
    json: { type: 'boolean', default: false },
    presets: { type: 'string' },
    'preset-child': { type: 'string' },
    repeat: { type: 'string', default: '3' },
    task: { type: 'string', default: 'hh-01' },
    embed: { type: 'string', default: path.join(os.homedir(), 'models/q3-embed') },
    rerank: { type: 'string', default: path.join(os.homedir(), 'models/q3-rerank') },
    'rerank-kv': { type: 'string' },
    'rerank-q8': { type: 'string' },
    'skill-side-cache': { type: 'string' },
    'record-traces': { type: 'string' },
    threads: { type: 'string', default: '2' },
    /** Exact-cut rounds to compare: alignment candidates per round (0 = no alignment cut), stage-fit pairs per round. */
    'align-round': { type: 'string' },
    'batch-size': { type: 'string' },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const K = Number(args['recall-k']);
const variants: { variant: Variant; k?: number }[] = [
  { variant: 'full' },
  { variant: 'no-graph' },
  { variant: 'no-split' },
  { variant: 'no-parse', k: 2 },
  { variant: 'dense', k: 2 },
];

async function loadEncoder(db: Db): Promise<CrossEncoder> {
  if (!args.encoder) return createLexicalCrossEncoder(db);
  const mod = (await import(pathToFileURL(path.resolve(args.encoder)).href)) as {
    default: (db: Db) => Promise<CrossEncoder>;
  };
  return mod.default(db);
}

const rounds = {
  ...(args['align-round'] !== undefined ? { alignRound: Number(args['align-round']) } : {}),
  ...(args['batch-size'] !== undefined ? { batchSize: Number(args['batch-size']) } : {}),
};

async function main(): Promise<void> {
  const library = await openSampleLibrary('bench-selection-');
  const db = library.db;
  try {
    const allTasks = parseLabelJsonl(
      readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'),
    );
    const tasks = args.tasks ? allTasks.slice(0, Number(args.tasks)) : allTasks;
    const encoder = await loadEncoder(db);
    const scorer = crossEncoderScoreProvider(encoder);
    const inputs: SelectionInput[] = [];
    for (const t of tasks) {
      const { input } = await recallCandidates(
        t.task,
        t.parse ?? null,
        K,
        (q, k) => lexicalRecall(db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
        (ids) => loadSkillsForSelection(db, ids),
      );
      if (args.states === 'synthetic')
        for (const c of input.candidates)
          c.states = { precondition: `Ready to use ${c.name}: ${c.description}`, completion: c.description };
      inputs.push(input);
    }

    const rows: string[][] = [];
    let identical = true;
    const shared = new Map<string, number>();
    const memos = inputs.map((): ScoreMemo => new Map());
    const totals = { naive: 0, cut: 0, shared: 0 };
    for (const v of variants) {
      let naivePairs = 0;
      let cutPairs = 0;
      let naiveTokens = 0;
      let cutTokens = 0;
      let pruned = 0;
      let alignCut = 0;
      let alignNaive = 0;
      let ms = 0;
      for (const [i, input] of inputs.entries()) {
        const cut = await selectSkills(input, scorer, { ...v, ...rounds });
        const naive = args['time-only'] ? cut : await selectSkills(input, scorer, { ...v, prune: false });
        const withShared = args['time-only']
          ? cut
          : await selectSkills(input, scorer, { ...v, ...rounds, memo: memos[i] });
        if (
          JSON.stringify(naive.answer) !== JSON.stringify(cut.answer) ||
          JSON.stringify(cut.answer) !== JSON.stringify(withShared.answer)
        )
          identical = false;
        naivePairs += naive.counts.pairs;
        cutPairs += cut.counts.pairs;
        naiveTokens += naive.counts.documentTokens;
        cutTokens += cut.counts.documentTokens;
        pruned += cut.counts.pairsPruned;
        alignCut += cut.scores.filter((x) => x.use === 'align').length;
        alignNaive += naive.scores.filter((x) => x.use === 'align').length;
        ms += cut.execution.totalMs;
        shared.set(v.variant, (shared.get(v.variant) ?? 0) + withShared.execution.pairsScored);
      }
      const n = inputs.length;
      totals.naive += naivePairs;
      totals.cut += cutPairs;
      totals.shared += shared.get(v.variant)!;
      rows.push([
        v.k ? `${v.variant}@${v.k}` : v.variant,
        (naivePairs / n).toFixed(1),
        (cutPairs / n).toFixed(1),
        (pruned / n).toFixed(1),
        `${(alignNaive / n).toFixed(1)} → ${(alignCut / n).toFixed(1)}`,
        (shared.get(v.variant)! / n).toFixed(1),
        (naiveTokens / n).toFixed(0),
        (cutTokens / n).toFixed(0),
        (ms / n).toFixed(1),
      ]);
    }
    console.log(
      `Selection cost on ${inputs.length} sample tasks, recall K = ${K}, skill states: ${args.states}, encoder: ${encoder.id}, rounds: ${JSON.stringify(rounds)}`,
    );
    console.log(
      'Per selection (means). "before" = no cuts; "after" = exact cuts; "shared" = pairs still scored when the variants',
    );
    console.log('of a task run in this order and share scores.\n');
    const head = [
      'variant',
      'pairs before',
      'pairs after',
      'stage-fit pruned',
      'align pairs',
      'pairs shared',
      'tokens before',
      'tokens after',
      'ms/sel',
    ];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) => r.map((c, i) => c.padStart(widths[i]!)).join('  ');
    console.log(line(head));
    for (const r of rows) console.log(line(r));
    const n = inputs.length;
    console.log(
      `\nAll variants per task: ${(totals.naive / n).toFixed(1)} pairs before, ${(totals.cut / n).toFixed(1)} after the cuts, ${(totals.shared / n).toFixed(1)} with sharing.`,
    );
    console.log(`Answers identical with and without the cuts: ${identical ? 'yes' : 'NO'}`);
    if (!identical) process.exitCode = 1;
    await encoder.dispose?.();
  } finally {
    library.close();
  }
}

function presetArgs(): PresetBenchArgs {
  return {
    presets: args.presets ?? 'exact,fast,mixed,offline',
    repeat: Number(args.repeat),
    embed: args.embed!,
    rerank: args.rerank!,
    ...(args['rerank-kv'] ? { rerankKv: args['rerank-kv'] } : {}),
    ...(args['rerank-q8'] ? { rerankQ8: args['rerank-q8'] } : {}),
    ...(args['skill-side-cache'] ? { skillSideCache: args['skill-side-cache'] } : {}),
    ...(args['record-traces'] ? { recordTraces: args['record-traces'] } : {}),
    K,
    task: args.task!,
    threads: Number(args.threads),
  };
}

if (args['preset-child']) {
  const figures = await runPresetChild(args['preset-child'] as BenchPreset, presetArgs());
  console.log(JSON.stringify(figures));
} else if (args.json || args.presets) {
  const figures = runPresetBench(presetArgs(), import.meta.filename);
  if (args.json) console.log(JSON.stringify({ task: args.task, K, presets: figures }, null, 2));
  else
    for (const f of figures)
      console.log(
        `${f.preset.padEnd(8)} ${String(f.pairs).padStart(4)} pairs  ${f.medianSeconds.toFixed(2).padStart(8)} s/selection` +
          `  load ${f.loadSeconds} s  peak RSS ${f.peakRssMiB} MiB  same as exact: ${f.sameAsExact ?? 'n/a'}` +
          (f.vsStart ? `  vs exact@start: ${f.vsStart.speedup}x, same answer ${f.vsStart.sameAnswer}` : '') +
          `  ${JSON.stringify(f.tokens)}`,
      );
} else await main();
