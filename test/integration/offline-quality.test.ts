// The offline preset must not undercut its own recall: on the sample tasks (sample library alone, and with the zjunlp
// collection imported beside it), `full` with the lexical engines answers a gold skill first at least as often as the
// recall's own top-1 does, with precision of at least 0.75. A behaviour check on real SQLite files; no timing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
const tasksText = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8');

async function evaluate(
  libraries: string[],
): Promise<{ fullTop1: number; recallTop1: number; precision: number }> {
  lib = tempLibrary();
  const db = lib.db;
  for (const source of libraries) await importSource(lib.deps, { path: source }, testJob());
  await importStatesFile(db, lib.deps.clock, {
    path: path.join(resources, 'sample-states.jsonl'),
    verify: true,
  });
  const setId = importLabelSet(db, { name: 'sample', text: tasksText }, lib.deps.clock()).set.id;
  const report = await runEval(
    {
      db,
      recall: (q, K) => lexicalRecall(db, q, K),
      recallModel: lexicalRecallEngine,
      scorer: crossEncoderScoreProvider(createLexicalCrossEncoder(db)),
      clock: lib.deps.clock,
    },
    { setId, variants: ['full', 'dense'], k: [1] },
    { signal: new AbortController().signal, report: () => {} },
  );
  const acceptable = new Map(
    parseLabelJsonl(tasksText).map((t) => [t.id, new Set([...t.gold, ...(t.groups ?? []).flat()])]),
  );
  const full = report.tasks.filter((t) => t.variant === 'full');
  return {
    fullTop1: full.filter((t) => acceptable.get(t.itemId)!.has(t.answer[0] ?? '')).length / full.length,
    recallTop1: report.summary.find((s) => s.variant === 'dense')!.hitAt1!,
    precision: report.summary.find((s) => s.variant === 'full')!.precision,
  };
}

describe('offline preset quality on the sample tasks', () => {
  it('sample library: full is at least the recall top-1 and precise', async () => {
    const m = await evaluate([path.join(resources, 'sample-library')]);
    expect(m.fullTop1).toBeGreaterThanOrEqual(m.recallTop1);
    expect(m.precision).toBeGreaterThanOrEqual(0.75);
  });

  // In CI the data must be there: a suite that cannot run fails instead of skipping.
  it.skipIf(!process.env.CI && !existsSync(zjunlpDir))(
    'sample library with the zjunlp collection imported: full is at least the recall top-1 and precise',
    async () => {
      const m = await evaluate([path.join(resources, 'sample-library'), zjunlpDir]);
      expect(m.fullTop1).toBeGreaterThanOrEqual(m.recallTop1);
      expect(m.precision).toBeGreaterThanOrEqual(0.75);
    },
    120_000,
  );

  // The demo task of the sample library: with the old scorer the heating sub-task went to put-object (its larger rho
  // outweighed the microwave skill's far better stage fit). With the lexical engines `full` finds no split point here
  // (docs/METHOD-notes.md, note 18), so the heating stage is checked where it is a stage of its own: no-split.
  it("gives the demo task's heating stage to the microwave skill", async () => {
    lib = tempLibrary();
    const db = lib.db;
    await importSource(lib.deps, { path: path.join(resources, 'sample-library') }, testJob());
    await importStatesFile(db, lib.deps.clock, {
      path: path.join(resources, 'sample-states.jsonl'),
      verify: true,
    });
    const mug = parseLabelJsonl(tasksText).find((t) => t.id === 'hh-01')!;
    const { input } = await recallCandidates(
      mug.task,
      mug.parse!,
      30,
      (q, K) => lexicalRecall(db, q, K),
      (ids) => loadSkillsForSelection(db, ids),
    );
    const trace = await selectSkills(input, crossEncoderScoreProvider(createLexicalCrossEncoder(db)), {
      variant: 'no-split',
    });
    const heating = trace.stages.find((s) => s.tau === 'Heat the mug in the microwave.')!;
    expect(trace.candidates[heating.winner!]!.name).toBe('household-heat-object-microwave');
  });
});
