// Peak RSS and CPU seconds of the exact preset's relevance pairs alone (r(q, c_k) for hh-01's K = 30 recall: the
// longest documents of a selection, where its peak RSS falls), with the reranker's batches run longest first or as
// planned (shortest first). Prints one JSON line with the r values, so two runs can be compared for equality.
// Run: npx tsx bench/relevance-rss.ts --rerank-kv DIR [--planned-order] [--threads 2]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { createOnnxCrossEncoder } from '../src/core/models/onnx';
import { skillDocument } from '../src/core/select/documents';
import { instructions } from '../src/core/select/instructions';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { defaultSettings } from '../src/shared/settings';
import { openSampleLibrary } from './sample-library-db';
import { modelFolder } from './selection-presets';

const { values: args } = parseArgs({
  options: {
    'rerank-kv': { type: 'string' },
    'planned-order': { type: 'boolean', default: false },
    threads: { type: 'string', default: '2' },
    task: { type: 'string', default: 'hh-01' },
  },
});
const settings = defaultSettings();
const library = await openSampleLibrary('bench-relevance-rss-');
try {
  const item = parseLabelJsonl(
    readFileSync(path.resolve(import.meta.dirname, '..', 'resources/sample-tasks.jsonl'), 'utf8'),
  ).find((i) => i.id === args.task)!;
  const { input } = await recallCandidates(
    item.task,
    item.parse!,
    30,
    (q, k) => lexicalRecall(library.db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
    (xs) => loadSkillsForSelection(library.db, xs),
  );
  const encoder = await createOnnxCrossEncoder({
    folder: modelFolder(args['rerank-kv']!, path.join(library.dir, 'rerank')),
    device: 'cpu',
    dtype: 'fp32',
    threads: Number(args.threads),
    maxBatchSize: settings.models.rerankBatchSize,
    longestFirst: !args['planned-order'],
  });
  await encoder.load();
  const loadRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  const provider = crossEncoderScoreProvider(encoder, {
    maxTokens: settings.selection.crossEncoderMaxTokens,
  });
  const c0 = process.cpuUsage();
  const r = await provider.score(
    instructions.relevance,
    input.candidates.map((c) => ({ query: item.task, document: skillDocument(c) })),
  );
  const cpu = process.cpuUsage(c0);
  await encoder.dispose();
  console.log(
    JSON.stringify({
      order: args['planned-order'] ? 'planned (shortest first)' : 'longest first',
      pairs: input.candidates.length,
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
      loadRssMiB,
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      r: r.map((x) => (typeof x === 'number' ? x : x.r)),
    }),
  );
} finally {
  library.close();
}
