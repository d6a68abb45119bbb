// Fits the lexical cross-scorer's log-odds maps for task relevance and stage fit (lexical:bm25-fitted-v5) on our own
// labels, the training part only (bench/offline-targets.ts: every third task is held out and never read here).
// Pairs: for each training task, the lexical recall's K = 30 candidates as skill documents;
//   relevance: (task, candidate), positive when the candidate is acceptable for the task (gold or any stage group);
//   stage fit: (sub-task i, candidate), positive when the candidate is in stage group i.
// Task sets: the sample tasks over the sample library, the same over the sample library + the zjunlp collection, and
// the zjunlp tasks over the zjunlp collection (with resources/*-states.jsonl). Features: fitted-lexical/features.ts.
// pointwise (default): one L2-regularised logistic regression per use (--balance: positives weighted up to the
// negatives' total); listwise: both maps jointly on the stage argmax of φ (fitted-lexical/listwise-fit.ts).
// The result is the record of docs/METHOD-notes.md note 32 (bench/fitted-lexical/calibration-v5.json); it did not beat
// the product's hand-set v4 map, so the product does not read it. Compare: npm run bench:offline -- --calibration FILE
// Run: npm run fit:lexical [-- --method pointwise|listwise --l2 1 --balance --pointwise 1 --iterations 400
//      --first-stage 1 --stage-labels group|task --features z,cover,head,exampleOnly --out FILE]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import {
  calibratedScore,
  queryTerms,
  scoredDocument,
} from '../src/core/models/lexical/lexical-cross-encoder';
import {
  featureDocument,
  featureNames,
  pairFeatures,
  type FeatureName,
  type LinearModel,
} from './fitted-lexical/features';
import { libraryIndex } from '../src/core/models/lexical/library-index-cache';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { skillDocument } from '../src/core/select/documents';
import { recallCandidates } from '../src/core/select/recall';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { importSource } from '../src/core/skills/importer';
import { zjunlpImportSettings } from './offline-targets';
import { importStatesFile } from '../src/core/states/import-states';
import { openDb } from '../src/core/store/db';
import { fitListwise, type Candidate, type RelevanceRow } from './fitted-lexical/listwise-fit';
import { fitLogistic } from './fitted-lexical/logistic-fit';
import { heldOut } from './offline-targets';

const { values: args } = parseArgs({
  options: {
    l2: { type: 'string', default: '1' },
    balance: { type: 'boolean', default: false },
    features: { type: 'string', default: featureNames.join(',') },
    out: { type: 'string' },
    /** listwise: both maps jointly on the stage argmax of φ (listwise-fit.ts); pointwise: one logistic fit per use. */
    method: { type: 'string', default: 'pointwise' },
    pointwise: { type: 'string', default: '1' },
    iterations: { type: 'string', default: '400' },
    /** Weight of each task's first stage in the listwise loss (its winner is full's first answer: Hit@1). */
    'first-stage': { type: 'string', default: '1' },
    /** Which candidates a stage's argmax should pick: its own group's (group) or any acceptable for the task (task). */
    'stage-labels': { type: 'string', default: 'group' },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const sets = [
  { name: 'sample', libraries: [path.join(resources, 'sample-library')], tasks: 'sample-tasks.jsonl' },
  {
    name: 'sample+zjunlp',
    libraries: [path.join(resources, 'sample-library'), zjunlp],
    tasks: 'sample-tasks.jsonl',
  },
  { name: 'zjunlp', libraries: [zjunlp], tasks: 'zjunlp-tasks.jsonl' },
];
const used = new Set(args.features!.split(',') as FeatureName[]);
for (const f of used) if (!featureNames.includes(f)) throw new Error(`unknown feature ${f}`);
const noop = (): void => {};
const clock = (): Date => new Date();

type Use = 'relevance' | 'stage-fit';
const data: Record<Use, { x: number[][]; y: boolean[] }> = {
  relevance: { x: [], y: [] },
  'stage-fit': { x: [], y: [] },
};
const stages: { candidates: Candidate[]; weight: number }[] = [];
const relevanceRows: RelevanceRow[] = [];

for (const set of sets) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fit-lexical-'));
  const db = openDb(path.join(dir, 'library.db'));
  try {
    for (const lib of set.libraries)
      await importSource(
        { db, clock, logger: { info: noop, warn: noop } },
        { path: lib },
        { signal: new AbortController().signal, report: noop },
        lib === zjunlp ? { settings: zjunlpImportSettings } : {},
      );
    for (const states of [
      'sample-states.jsonl',
      ...(set.libraries.includes(zjunlp) ? ['zjunlp-states.jsonl'] : []),
    ])
      await importStatesFile(db, clock, { path: path.join(resources, states), verify: true });
    const index = libraryIndex(db);
    const items = parseLabelJsonl(readFileSync(path.join(resources, set.tasks), 'utf8'));
    for (const [line, item] of items.entries()) {
      if (heldOut(line)) continue;
      const { input } = await recallCandidates(
        item.task,
        item.parse ?? null,
        30,
        (q, k) => lexicalRecall(db, q, k),
        (ids) => loadSkillsForSelection(db, ids),
      );
      const acceptable = new Set([...item.gold, ...(item.groups ?? []).flat()]);
      const features = (query: string): number[][] => {
        const q = queryTerms(query);
        return input.candidates.map((c) => {
          const text = skillDocument(c);
          const doc = scoredDocument(text, index);
          const f = pairFeatures(
            index,
            q.distinct,
            featureDocument(text, doc)!,
            calibratedScore(index, q, doc).z,
          );
          return featureNames.filter((n) => used.has(n)).map((n) => f[n]);
        });
      };
      const x = features(item.task);
      input.candidates.forEach((c, k) => {
        data.relevance.x.push(x[k]!);
        data.relevance.y.push(acceptable.has(c.name));
        relevanceRows.push({ x: x[k]!, positive: acceptable.has(c.name) });
      });
      const subtasks = item.parse?.subtasks ?? [];
      if (item.groups && item.groups.length === subtasks.length)
        subtasks.forEach((s, i) => {
          const y = features(s);
          const group = new Set(item.groups![i]!);
          input.candidates.forEach((c, k) => {
            data['stage-fit'].x.push(y[k]!);
            data['stage-fit'].y.push(group.has(c.name));
          });
          stages.push({
            candidates: input.candidates.map((c, k) => ({
              x: x[k]!,
              y: y[k]!,
              positive: args['stage-labels'] === 'task' ? acceptable.has(c.name) : group.has(c.name),
            })),
            weight: i === 0 ? Number(args['first-stage']) : 1,
          });
        });
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const l2 = Number(args.l2);
const kept = featureNames.filter((f) => used.has(f));
const model = (theta: readonly number[]): LinearModel => {
  const weights = Object.fromEntries(featureNames.map((f) => [f, 0])) as Record<FeatureName, number>;
  kept.forEach((f, i) => (weights[f] = round(theta[i + 1]!)));
  return { bias: round(theta[0]!), weights };
};
const models = {} as Record<Use, LinearModel>;
const training: Record<string, unknown> = {
  stages: stages.length,
  ...Object.fromEntries(
    (['relevance', 'stage-fit'] as const).map((use) => [
      use,
      { pairs: data[use].y.length, positives: data[use].y.filter(Boolean).length },
    ]),
  ),
};
if (args.method === 'listwise') {
  // Start from the hand-set v4 map (r = 0.6 z - 2.1) for both uses.
  const v4 = [-2.1, ...kept.map((f) => (f === 'z' ? 0.6 : 0))];
  const fit = fitListwise(
    { stages, relevance: relevanceRows },
    {
      l2,
      pointwise: Number(args.pointwise),
      iterations: Number(args.iterations),
      start: { relevance: v4, fit: v4 },
    },
  );
  models.relevance = model(fit.relevance);
  models['stage-fit'] = model(fit.fit);
  training.loss = round(fit.loss);
  training.iterations = fit.iterations;
} else {
  for (const use of ['relevance', 'stage-fit'] as const) {
    const { x, y } = data[use];
    const positives = y.filter(Boolean).length;
    const positiveWeight = args.balance ? (y.length - positives) / positives : 1;
    const fit = fitLogistic(x, y, { l2, positiveWeight });
    models[use] = model([fit.bias, ...fit.weights]);
  }
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

const file = {
  id: 'lexical:bm25-fitted-v5',
  about:
    'Log-odds r = bias + Σ weight·feature for task relevance and stage fit (bench/fitted-lexical/features.ts), ' +
    'fitted on the training parts only of resources/sample-tasks.jsonl (over the sample library, alone and with ' +
    'the zjunlp collection) and resources/zjunlp-tasks.jsonl. A record, not read by the product: it did not beat ' +
    'the hand-set v4 map (docs/METHOD-notes.md note 32).',
  command:
    `npm run fit:lexical -- --method ${args.method} --l2 ${args.l2}` +
    (args.method === 'listwise'
      ? ` --pointwise ${args.pointwise} --iterations ${args.iterations} --first-stage ${args['first-stage']} --stage-labels ${args['stage-labels']}`
      : '') +
    `${args.balance ? ' --balance' : ''} --features ${kept.join(',')}`,
  training,
  models,
};
const text = `${JSON.stringify(file, null, 2)}\n`;
if (args.out) writeFileSync(args.out, text);
console.log(text);
