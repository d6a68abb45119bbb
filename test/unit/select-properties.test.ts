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
      // Edges the alignment cut left open have no src/tgt; the aligned ones are the uncut selection's.
      expect(trace.candidates.filter((c) => !c.unplaced).map((c) => [c.index, c.src, c.tgt])).toEqual(
        full.candidates
          .filter((c) => !trace.candidates[c.index]!.unplaced)
          .map((c) => [c.index, c.src, c.tgt]),
      );
      expect(trace.counts.pairs).toBeLessThanOrEqual(full.counts.pairs);
    }
  });

  it('the alignment cut (open edges that cannot change a split) never changes the stages or the answer', async () => {
    let open = 0;
    let saved = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const rand = prng(1000 + seed);
      const input = randomInput(rand, 30);
      // Half the cases give every skill its own state texts, so its alignment pairs are its own.
      if (seed % 2 === 0)
        for (const c of input.candidates)
          if (c.states)
            c.states = {
              precondition: c.states.precondition && `${c.states.precondition} (${c.name})`,
              completion: `${c.states.completion} (${c.name})`,
            };
      const coarse = seed % 3 === 0;
      const alignRound = 1 + (seed % 8);
      const cut = await selectSkills(input, new HashScorer(seed, coarse), { alignRound });
      const all = await selectSkills(input, new HashScorer(seed, coarse), { alignRound: 0 });
      const none = await selectSkills(input, new HashScorer(seed, coarse), { prune: false });
      for (const other of [all, none]) {
        expect(cut.answer).toEqual(other.answer);
        expect(cut.splitPoints).toEqual(other.splitPoints);
        expect(cut.stages.map((s) => [s.from, s.to, s.tau, s.winner])).toEqual(
          other.stages.map((s) => [s.from, s.to, s.tau, s.winner]),
        );
      }
      expect(cut.stages).toEqual(all.stages);
      // Aligned edges are the ones the uncut selection finds.
      for (const c of cut.candidates)
        if (!c.unplaced)
          expect([c.src, c.tgt]).toEqual([all.candidates[c.index]!.src, all.candidates[c.index]!.tgt]);
      expect(cut.counts.inGraph).toBe(all.counts.inGraph);
      expect(cut.counts.pairs).toBeLessThanOrEqual(all.counts.pairs);
      if (cut.n >= 2) expectTraceFollowsMethod(cut);
      open += cut.counts.unplaced ?? 0;
      saved += all.counts.pairs - cut.counts.pairs;
      // A replay of the stored trace makes the same cut from the recorded scores alone.
      const replayed = await replaySelection(JSON.parse(JSON.stringify(cut)) as SelectionTrace, [], null);
      expect(stable(replayed)).toEqual(stable(cut));
    }
    // The cut fires on these tables (the property is not vacuous).
    expect(open).toBeGreaterThan(CASES / 2);
    expect(saved).toBeGreaterThan(CASES);
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
