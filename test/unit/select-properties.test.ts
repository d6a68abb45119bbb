// Properties over a few hundred random r tables (seeded, reproducible): answer shape, exact cuts, and replay.
import { describe, expect, it } from 'vitest';
import { replaySelection } from '../../src/core/select/replay';
import { selectSkills } from '../../src/core/select/select';
import type { SelectionTrace, Variant } from '../../src/core/select/trace-types';
import { expectTraceFollowsMethod } from '../fixtures/method-oracle';
import { HashScorer, prng, randomInput } from './select-fixtures';

const CASES = 300;
const stageVariants: Variant[] = ['full', 'no-graph', 'no-split'];

function stable(trace: SelectionTrace): unknown {
  const { execution: _e, replay: _r, ...rest } = trace;
  return rest;
}

describe('selection properties', () => {
  it('answers hold 1..stages distinct candidates in stage order, and the exact cuts never change them', async () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const rand = prng(seed);
      const input = randomInput(rand);
      const variant = stageVariants[seed % 3]!;
      const scorer = new HashScorer(seed, seed % 2 === 0);
      const trace = await selectSkills(input, scorer, { variant, batchSize: 1 + (seed % 4) });
      const names = input.candidates.map((c) => c.name);
      const size = trace.answer.length;
      expect(size).toBeGreaterThanOrEqual(1);
      expect(size).toBeLessThanOrEqual(Math.max(1, trace.stages.length));
      expect(new Set(trace.answer.map((a) => a.name)).size).toBe(size);
      for (const a of trace.answer) expect(names).toContain(a.name);
      const firstStages = trace.answer.map((a) => a.stages[0] ?? 0);
      expect(firstStages).toEqual([...firstStages].sort((a, b) => a - b));
      for (const stage of trace.stages) {
        const best = Math.max(...stage.phi.filter((e) => e.phi !== null).map((e) => e.phi!));
        // The winner is the first (smallest-index) candidate with the best phi.
        expect(stage.winner).toBe(stage.phi.find((e) => e.phi === best)!.candidate);
      }
      if (trace.n >= 2) expectTraceFollowsMethod(trace);

      const full = await selectSkills(input, new HashScorer(seed, seed % 2 === 0), { variant, prune: false });
      expect(trace.answer).toEqual(full.answer);
      expect(trace.splitPoints).toEqual(full.splitPoints);
      expect(trace.candidates.map((c) => [c.src, c.tgt])).toEqual(full.candidates.map((c) => [c.src, c.tgt]));
      expect(trace.counts.pairs).toBeLessThanOrEqual(full.counts.pairs);
    }
  });

  it('replaying an unedited trace reproduces it exactly without a scorer', async () => {
    const all: Variant[] = ['full', 'no-graph', 'no-split', 'no-parse', 'dense'];
    for (let seed = 1; seed <= CASES; seed++) {
      const input = randomInput(prng(seed));
      const variant = all[seed % all.length]!;
      const trace = await selectSkills(input, new HashScorer(seed, seed % 2 === 1), {
        variant,
        k: 1 + (seed % 3),
      });
      const stored = JSON.parse(JSON.stringify(trace)) as SelectionTrace;
      const replayed = await replaySelection(stored, [], null);
      expect(replayed.execution.pairsScored).toBe(0);
      expect(stable(replayed)).toEqual(stable(trace));
    }
  });

  it('a what-if edit gives what a fresh selection on the edited inputs gives, scoring only changed pairs', async () => {
    for (let seed = 1; seed <= 100; seed++) {
      const input = randomInput(prng(seed));
      if (!input.parse || input.parse.states.length < 3) continue;
      const trace = await selectSkills(input, new HashScorer(seed, false));
      const edit = { kind: 'state' as const, index: 1, text: 'An edited state.' };
      const scorer = new HashScorer(seed, false);
      const replayed = await replaySelection(trace, [edit], scorer);
      const edited = structuredClone(input);
      edited.parse!.states[1] = edit.text;
      const fresh = await selectSkills(edited, new HashScorer(seed, false));
      expect(stable(replayed)).toEqual(stable(fresh));
      // Exactly the pairs the edited selection needs that the stored trace did not record go to the scorer.
      const key = (s: SelectionTrace['scores'][number]): string =>
        `${s.version}|${s.query}|${JSON.stringify(s.doc)}`;
      const recorded = new Set(trace.scores.map(key));
      expect(scorer.pairs).toBe(fresh.scores.filter((s) => !recorded.has(key(s))).length);
      expect(replayed.execution.pairsScored).toBe(scorer.pairs);
    }
  });
});
