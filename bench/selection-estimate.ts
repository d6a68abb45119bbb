// The cost estimate (`select.estimate`, issue 10 item 4) against what a whole selection measured: for each preset of a
// `bench:selection --json` run, the estimate before the run (K as asked), the estimate once the recall is known
// (K = the candidates it returned: the bound the progress events count against), and both with the tokens per second
// this run measured instead of the default, each beside the measured pairs, prompt tokens and seconds.
// Run: npx tsx bench/selection-estimate.ts --figures FILE (the JSON `bench:selection -- --json` prints; lines of
//   `[preset done …] {json}` from its stderr are read too)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { lexicalCrossEncoderId } from '../src/core/models/lexical/lexical-cross-encoder';
import { estimateSelection } from '../src/core/select/cost';
import type { ScorerTier, SelectionPreset } from '../src/shared/presets';
import { defaultSettings } from '../src/shared/settings';
import { openSampleLibrary } from './sample-library-db';
import type { PresetFigures } from './selection-presets';

const { values: args } = parseArgs({
  options: { figures: { type: 'string' }, json: { type: 'boolean', default: false } },
});
if (!args.figures) throw new Error('--figures FILE: the output of npm run bench:selection -- --json');
const repoRoot = path.resolve(import.meta.dirname, '..');

/** The figures of a finished run (its JSON), or of a partial one (its stderr's `[preset done …]` lines). */
function readFigures(file: string): { K: number; task: string; presets: PresetFigures[] } {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as { K: number; task: string; presets: PresetFigures[] };
  } catch {
    const presets = text
      .split('\n')
      .filter((l) => l.startsWith('[preset done'))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as PresetFigures);
    return { K: 30, task: 'hh-01', presets };
  }
}

const run = readFigures(args.figures);
const settings = defaultSettings();
const item = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8')).find(
  (i) => i.id === run.task,
)!;
const library = await openSampleLibrary('bench-estimate-');
const rows: Record<string, unknown>[] = [];
try {
  for (const f of run.presets) {
    const preset = (f.preset.startsWith('exact') ? 'exact' : f.preset) as SelectionPreset;
    const engines: Partial<Record<ScorerTier, string>> = {
      // The ids the app gives these engines: the folder's name, `@q8` for q8 weights (onnx-engine-factory).
      'cross-encoder': f.preset === 'exact@q8' ? 'rerank@q8' : 'rerank',
      embedder: 'Qwen3-Embedding-0.6B-shape',
      lexical: lexicalCrossEncoderId,
    };
    const estimate = (K: number) =>
      estimateSelection(library.db, {
        preset,
        variants: ['full'],
        K,
        task: item.task,
        parse: item.parse ?? null,
        maxTokens: f.preset === 'exact@start' ? 1024 : settings.selection.crossEncoderMaxTokens,
        engines,
        skillSideCoverage: 1,
      });
    const before = estimate(run.K);
    const known = estimate(f.candidates);
    const measuredTokens = Object.values(f.tokens).reduce((a, b) => a + b, 0);
    const wall = f.medianSeconds;
    const cpu = f.cpuSecondsPerSelection.reduce((a, b) => a + b, 0) / f.cpuSecondsPerSelection.length;
    // With this run's own throughput (prompt tokens per wall second, what the app records after a selection).
    const measuredTps = measuredTokens / wall;
    const pct = (est: number, real: number) => `${(((est - real) / real) * 100).toFixed(0)} %`;
    rows.push({
      preset: f.preset,
      pairs: { measured: f.pairsScored, estimateK: before.pairs, estimateCandidates: known.pairs },
      tokens: { measured: measuredTokens, estimateK: before.tokens, estimateCandidates: known.tokens },
      seconds: {
        wall: wall,
        cpu: Number(cpu.toFixed(2)),
        estimateDefault: Number(known.seconds.toFixed(1)),
        estimateMeasuredThroughput: Number((known.tokens / measuredTps).toFixed(2)),
      },
      error: {
        pairsK: pct(before.pairs, f.pairsScored),
        pairsCandidates: pct(known.pairs, f.pairsScored),
        tokensCandidates: pct(known.tokens, measuredTokens),
        secondsDefaultVsWall: pct(known.seconds, wall),
        secondsDefaultVsCpu: pct(known.seconds, cpu),
      },
      defaultTokensPerSecond: known.engines.map((e) => `${e.tier} ${e.tokensPerSecond}`).join(', '),
      measuredTokensPerWallSecond: Number(measuredTps.toFixed(1)),
      measuredTokensPerCpuSecond: Number((measuredTokens / cpu).toFixed(1)),
    });
  }
} finally {
  library.close();
}
if (args.json) console.log(JSON.stringify(rows, null, 2));
else for (const r of rows) console.log(JSON.stringify(r));
