// The offline preset must not undercut its own recall (issue 10): on the task sets we wrote (the sample tasks over the
// sample library, alone and with the zjunlp collection imported beside it, and the zjunlp tasks over the zjunlp
// collection with resources/zjunlp-states.jsonl), `full` with the lexical engines answers an acceptable skill first
// at least as often as the recall's own top-1 and no-parse@1, covers at least as many stages as those ranked
// baselines at the same mean answer size, with precision of at least 0.75 (bench/offline-targets.ts). And the demo
// task's answer includes the heating skill. Behaviour checks on real SQLite files; no timing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { offlineTargets, zjunlpImportSettings, type OfflineTargets } from '../../bench/offline-targets';
import { PlainBm25 } from '../../bench/plain-bm25';
import { OFFLINE_ABSTAIN_BELOW } from '../../src/shared/presets';
import { importLabelSet } from '../../src/core/eval/label-store';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import { runEval } from '../../src/core/eval/run-eval';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall, lexicalRecallEngine } from '../../src/core/models/lexical/lexical-recall';
import { recallCandidates } from '../../src/core/select/recall';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { selectSkills } from '../../src/core/select/select';
import { loadSkillsForSelection } from '../../src/core/select/skill-source';
import { importSource } from '../../src/core/skills/index';
import { importStatesFile } from '../../src/core/states/import-states';
import {
  repoRoot,
  tempLibrary,
  testJob,
  zjunlpDir,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary | undefined;
afterEach(() => lib?.close());

const resources = path.join(repoRoot, 'resources');
const sampleLibrary = path.join(resources, 'sample-library');

async function evaluate(
  libraries: string[],
  tasksFile: string,
  abstainBelow?: number,
): Promise<OfflineTargets & { plainBm25Top1: number }> {
  lib = tempLibrary();
  const db = lib.db;
  for (const source of libraries)
    await importSource(
      lib.deps,
      { path: source },
      testJob(),
      source === zjunlpDir ? { settings: zjunlpImportSettings } : {},
    );
  for (const states of [
    'sample-states.jsonl',
    ...(libraries.includes(zjunlpDir) ? ['zjunlp-states.jsonl'] : []),
  ])
    await importStatesFile(db, lib.deps.clock, { path: path.join(resources, states), verify: true });
  const text = readFileSync(path.join(resources, tasksFile), 'utf8');
  const setId = importLabelSet(db, { name: tasksFile, text }, lib.deps.clock()).set.id;
  const report = await runEval(
    {
      db,
      recall: (q, K) => lexicalRecall(db, q, K),
      recallModel: lexicalRecallEngine,
      scorer: crossEncoderScoreProvider(createLexicalCrossEncoder(db)),
      abstainBelow,
      clock: lib.deps.clock,
    },
    { setId, variants: ['full', 'no-parse', 'dense'], k: [1, 2] },
    { signal: new AbortController().signal, report: () => {} },
  );
  const items = parseLabelJsonl(text);
  const plain = new PlainBm25(
    db.prepare('SELECT name, description FROM skills').all() as { name: string; description: string }[],
  );
  const served = items.filter((i) => i.gold.length > 0);
  const plainHits = served.filter((i) =>
    [...i.gold, ...(i.groups ?? []).flat()].includes(plain.top(i.task, 1)[0]!),
  );
  return {
    ...offlineTargets(report, items, 'all'),
    plainBm25Top1: served.length === 0 ? 0 : plainHits.length / served.length,
  };
}

function expectTargetsMet(t: OfflineTargets): void {
  expect(t.fullTop1).toBeGreaterThanOrEqual(t.recallTop1);
  expect(t.fullTop1).toBeGreaterThanOrEqual(t.noParseTop1);
  expect(t.fullCoverage).toBeGreaterThanOrEqual(t.denseCoverageAtSize);
  expect(t.fullCoverage).toBeGreaterThanOrEqual(t.noParseCoverageAtSize);
  expect(t.fullPrecision).toBeGreaterThanOrEqual(0.75);
  expect(t.met).toBe(true);
}

// In CI the data must be there: a suite that cannot run fails instead of skipping.
const withZjunlp = it.skipIf(!process.env.CI && !existsSync(zjunlpDir));

describe('offline preset quality on our task sets', () => {
  it('sample tasks over the sample library', async () => {
    expectTargetsMet(await evaluate([sampleLibrary], 'sample-tasks.jsonl'));
  });

  withZjunlp(
    'sample tasks over the sample library with the zjunlp collection imported beside it',
    async () => expectTargetsMet(await evaluate([sampleLibrary, zjunlpDir], 'sample-tasks.jsonl')),
    180_000,
  );

  // With the v2 scorer full's Hit@1 here was 76.5 % against the recall's 82.4 %: the first stage ("Find the egg and
  // pick it up") went to skills that name the task's object only as an example (docs/METHOD-notes.md, note 24).
  withZjunlp(
    'zjunlp tasks over the zjunlp collection with its parsed states',
    async () => expectTargetsMet(await evaluate([zjunlpDir], 'zjunlp-tasks.jsonl')),
    180_000,
  );

  // Issue 26: single-skill routing queries over the other zjunlp collections, written apart from the engine. The
  // recall's own top-1 is at least plain BM25 over name and description (bench/plain-bm25.ts), and with the
  // offline preset's abstain threshold `full` answers at most 5 % of them with nothing.
  withZjunlp(
    'routing queries: the recall ranks the right skill first at least as often as plain BM25',
    async () => {
      const t = await evaluate([zjunlpDir], 'routing-tasks.jsonl', OFFLINE_ABSTAIN_BELOW);
      expect(t.tasks).toBeGreaterThanOrEqual(60);
      expect(t.recallTop1).toBeGreaterThanOrEqual(t.plainBm25Top1);
      expect(t.fullFalseAbstentions).toBeLessThanOrEqual(0.05);
    },
    180_000,
  );

  // Queries no skill of the library fits: most are answered with nothing (73.7 % at the threshold chosen on them).
  withZjunlp(
    'queries no skill fits are answered with nothing',
    async () => {
      const t = await evaluate([zjunlpDir], 'no-fit-tasks.jsonl', OFFLINE_ABSTAIN_BELOW);
      expect(t.noFitTasks).toBeGreaterThanOrEqual(30);
      expect(t.fullAbstainedOnNoFit).toBeGreaterThanOrEqual(0.7);
    },
    180_000,
  );

  // The demo task of the sample library. With the v2 scorer make-coffee's precondition ("holding a clean, empty mug,
  // and the room has a coffee machine") aligned with s_1 ("holding the mug, which is at room temperature") through
  // "room", its edge crossed node 2, no split was found and the answer was make-coffee alone. Counting that s_2
  // names the mug twice aligns it with s_2 ("holding the mug and the mug is hot"): node 2 splits and the heating
  // stage goes to the microwave skill.
  it("answers the demo task with the heating skill, then the coffee machine's", async () => {
    lib = tempLibrary();
    const db = lib.db;
    await importSource(lib.deps, { path: sampleLibrary }, testJob());
    await importStatesFile(db, lib.deps.clock, {
      path: path.join(resources, 'sample-states.jsonl'),
      verify: true,
    });
    const tasks = parseLabelJsonl(readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8'));
    const mug = tasks.find((t) => t.id === 'hh-01')!;
    const { input } = await recallCandidates(
      mug.task,
      mug.parse!,
      30,
      (q, K) => lexicalRecall(db, q, K),
      (ids) => loadSkillsForSelection(db, ids),
    );
    const trace = await selectSkills(input, crossEncoderScoreProvider(createLexicalCrossEncoder(db)), {
      variant: 'full',
    });
    expect(trace.splitPoints).toContain(2);
    const makeCoffee = trace.candidates.find((c) => c.name === 'household-make-coffee')!;
    expect(makeCoffee.src).toBe(2);
    expect(trace.answer.map((a) => a.name)).toEqual([
      'household-heat-object-microwave',
      'household-make-coffee',
    ]);
  });
});
