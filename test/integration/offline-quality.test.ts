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
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
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
});
