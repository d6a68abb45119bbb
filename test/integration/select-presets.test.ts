// The presets' parts on the sample library in a real SQLite file, with the hashing embedder (a real vector engine
// that needs no model): the skill side is incremental and goes stale with the model, the estimate bounds the pairs a
// selection needs, measured throughput replaces the default, and the fast scorer is the calibrated cosine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import { createHashingEmbedder } from '../../src/core/models/lexical/hashing-embedder';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../../src/core/models/lexical/lexical-recall';
import type { Embedder } from '../../src/core/models/ports';
import { skillSideCoverage, skillSideLookup, updateSkillSide } from '../../src/core/search/skill-side-index';
import { estimateSelection } from '../../src/core/select/cost';
import { embedderScoreProvider } from '../../src/core/select/embedder-score-provider';
import { embedderInstructions } from '../../src/core/select/instructions';
import { presetScorer } from '../../src/core/select/preset-scorer';
import { recallCandidates } from '../../src/core/select/recall';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { selectSkills } from '../../src/core/select/select';
import { loadSkillsForSelection } from '../../src/core/select/skill-source';
import { recordThroughput, ThroughputMeter, tokensPerSecond } from '../../src/core/select/throughput';
import type { Variant } from '../../src/core/select/trace-types';
import { importSource } from '../../src/core/skills/index';
import { editStates } from '../../src/core/states/skill-states';
import { repoRoot, tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
const embedded: string[] = [];
const hashing = createHashingEmbedder({ dim: 64 });
const recording: Embedder = {
  id: 'recorded-hashing-64',
  engine: hashing.engine,
  dim: hashing.dim,
  embed: (texts, o) => (embedded.push(...texts), hashing.embed(texts, o)),
};
const tasks = parseLabelJsonl(
  readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'),
).filter((t) => t.parse);

beforeAll(async () => {
  lib = tempLibrary();
  await importSource(lib.deps, { path: path.join(repoRoot, 'resources/sample-library') }, testJob());
});
afterAll(() => lib.close());

const skillCount = () => lib.db.prepare('SELECT count(*) FROM skills').pluck().get() as number;

describe('the skill side of the fast preset', () => {
  it('embeds every document and completion once, then nothing until a text changes', async () => {
    const first = await updateSkillSide(lib.db, recording, { dtype: 'n/a' });
    // No skill is parsed: c_k and e_k (the description) per skill, no precondition.
    expect(first).toMatchObject({ embedded: 2 * skillCount(), unchanged: 0, cancelled: false });
    expect(skillSideCoverage(lib.db, recording.id, 'n/a')).toBe(1);
    embedded.length = 0;
    expect(await updateSkillSide(lib.db, recording, { dtype: 'n/a' })).toMatchObject({ embedded: 0 });
    expect(embedded).toEqual([]);
  });

  it('re-embeds only the states that an edit changed', async () => {
    const id = lib.db
      .prepare("SELECT id FROM skills WHERE name = 'household-make-coffee'")
      .pluck()
      .get() as number;
    editStates(lib.db, lib.deps.clock, id, {
      precondition: 'A mug is in the coffee machine',
      completion: 'Coffee is made',
    });
    embedded.length = 0;
    const report = await updateSkillSide(lib.db, recording, { dtype: 'n/a', skillIds: [id] });
    expect(embedded.sort()).toEqual(['A mug is in the coffee machine', 'Coffee is made']);
    expect(report).toMatchObject({ embedded: 2, unchanged: 1 });
    editStates(lib.db, lib.deps.clock, id, { precondition: null });
    const dropped = await updateSkillSide(lib.db, recording, { dtype: 'n/a', skillIds: [id] });
    expect(dropped).toMatchObject({ embedded: 0, removed: 1 });
  });

  it('does not serve another model’s vectors, and a rebuild for the new model replaces them', async () => {
    const other: Embedder = { ...recording, id: 'another-model' };
    expect(skillSideCoverage(lib.db, other.id, 'n/a')).toBe(0);
    const docs = loadSkillsForSelection(lib.db, [1]).map((s) => `${s.name} | ${s.description} | ${s.body}`);
    expect(skillSideLookup(lib.db, other.id, 'n/a')(docs).size).toBe(0);
    expect(skillSideLookup(lib.db, recording.id, 'n/a')(docs).size).toBe(1);
    const rebuilt = await updateSkillSide(lib.db, other, { dtype: 'n/a' });
    expect(rebuilt.removed).toBeGreaterThanOrEqual(2 * skillCount());
    expect(skillSideCoverage(lib.db, recording.id, 'n/a')).toBe(0);
    expect(skillSideCoverage(lib.db, other.id, 'n/a')).toBe(1);
    await updateSkillSide(lib.db, recording, { dtype: 'n/a' });
  });
});

describe('the fast scorer and the estimate', () => {
  it('scores r = scale * (cos - center), reading the skill side and embedding only the task side', async () => {
    const [item] = tasks;
    const { input } = await recallCandidates(
      item!.task,
      item!.parse!,
      10,
      (q, k) => lexicalRecall(lib.db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
      (ids) => loadSkillsForSelection(lib.db, ids),
    );
    const calibration = { scale: 7, center: 0.25, source: 'test' };
    const provider = embedderScoreProvider(recording, {
      calibration,
      skillSide: skillSideLookup(lib.db, recording.id, 'n/a'),
    });
    embedded.length = 0;
    const trace = await selectSkills(input, presetScorer('fast', { embedder: provider }), {
      variant: 'full',
      preset: 'fast',
    });
    expect(provider.documentsEmbedded).toBe(0);
    const taskSide = new Set([item!.task, ...item!.parse!.states, ...item!.parse!.subtasks]);
    for (const text of embedded)
      expect(taskSide.has(text) || item!.parse!.subtasks.join(' ') === text).toBe(true);

    const c = trace.candidates[0]!;
    const [q] = await hashing.embed([item!.task], {
      role: 'query',
      instruction: embedderInstructions.relevance.text,
    });
    const [d] = await hashing.embed(
      [`${c.name} | ${input.candidates[0]!.description} | ${input.candidates[0]!.body}`],
      {
        role: 'document',
      },
    );
    const cos = q!.reduce((s, x, i) => s + x * d![i]!, 0);
    expect(c.rho).toBeCloseTo(7 * (cos - 0.25), 5);
    expect(trace.scorers!.relevance.calibration).toEqual(calibration);
  });

  it('bounds the pairs every variant set needs on every sample task', async () => {
    const sets: Variant[][] = [
      ['full'],
      ['no-graph'],
      ['no-split'],
      ['no-parse'],
      ['full', 'no-split', 'no-parse', 'dense'],
    ];
    const scorer = crossEncoderScoreProvider(createLexicalCrossEncoder(lib.db));
    for (const item of tasks) {
      const { input } = await recallCandidates(
        item.task,
        item.parse!,
        30,
        (q, k) => lexicalRecall(lib.db, q, k).map((h) => ({ skillId: h.skillId, score: h.score })),
        (ids) => loadSkillsForSelection(lib.db, ids),
      );
      // Every candidate with a precondition: the most alignment pairs.
      for (const c of input.candidates)
        c.states = { precondition: `Ready for ${c.name}`, completion: c.description };
      for (const variants of sets) {
        // Variants share scores, as in the lab: the bound is on the distinct pairs scored.
        const memo = new Map();
        let pairs = 0;
        for (const variant of variants)
          pairs += (await selectSkills(input, scorer, { variant, memo })).execution.pairsScored;
        const estimate = estimateSelection(lib.db, {
          preset: 'offline',
          variants,
          K: 30,
          task: item.task,
          parse: item.parse!,
          maxTokens: 1024,
          engines: { lexical: 'lexical:test' },
        });
        expect(estimate.pairs, `${item.id} ${variants.join(',')}`).toBeGreaterThanOrEqual(pairs);
      }
    }
  });

  it('uses the throughput measured on this machine once there is one', () => {
    const before = tokensPerSecond(lib.db, 'embedder', 'measured-model');
    expect(before.measured).toBe(false);
    const meter = new ThroughputMeter();
    meter.add('embedder', 'measured-model', 3000, 1500);
    recordThroughput(lib.db, meter.samples(), new Date());
    expect(tokensPerSecond(lib.db, 'embedder', 'measured-model')).toEqual({
      tokensPerSecond: 2000,
      measured: true,
    });
    const estimate = estimateSelection(lib.db, {
      preset: 'fast',
      variants: ['full'],
      K: 10,
      task: 'put a hot mug in the coffee machine',
      parse: null,
      maxTokens: 1024,
      engines: { embedder: 'measured-model' },
    });
    expect(estimate.engines[0]).toMatchObject({ tier: 'embedder', measured: true, tokensPerSecond: 2000 });
    expect(estimate.seconds).toBeCloseTo(estimate.tokens / 2000, 6);
    expect(estimate.notes.join(' ')).toMatch(/assumes 3 sub-tasks/);
  });
});
