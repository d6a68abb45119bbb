// METHOD.md sections 2-4 on hand-computed cases: fixed r tables, every intermediate value asserted.
import { describe, expect, it } from 'vitest';
import { selectSkills } from '../../src/core/select/select';
import type { SelectionInput } from '../../src/core/select/trace-types';
import { logSig, sig, skill, TableScorer, type RTable } from './select-fixtures';
import { E, fits, mugInput, mugTable, names, P, s, t } from './select-mug-fixture';

describe('full selection on "put a hot mug in the coffee machine"', () => {
  it('aligns src/tgt with ties to the smaller index and skips one-element ranges', async () => {
    const scorer = new TableScorer(mugTable);
    const trace = await selectSkills(mugInput, scorer);
    expect(trace.candidates.map((c) => [c.src, c.tgt])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [1, 2],
    ]);
    expect(trace.candidates.every((c) => c.dropped === null)).toBe(true);
    expect(trace.candidates[1]!.srcScores).toEqual([-2, 3, 1]);
    expect(trace.candidates[0]!.srcScores).toEqual([]); // p = None
    expect(trace.candidates[0]!.tgtScores).toEqual([null, 3, 1, -1]);
    expect(trace.candidates[2]!.tgtScores).toEqual([null, null, null, null]);
    expect(scorer.asked.filter((k) => k.includes(E.put))).toEqual([]);
    expect(trace.candidates.map((c) => c.w)).toEqual([sig(1), sig(2), sig(1.5), sig(-1)]);
  });

  it('computes In/Out/Cross at every node and finds split points 1 and 2', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable));
    const [wl, wh, wp, wc] = [sig(1), sig(2), sig(1.5), sig(-1)];
    const d = 3;
    const expected = [
      { in: 0, out: wl + wh / (1 + 1 / d) + wp / (1 + 2 / d) + wc / (1 + 1 / d), cross: 0, split: false },
      { in: wl, out: wh + wc + wp / (1 + 1 / d), cross: 0, split: true },
      { in: wl / (1 + 1 / d) + wh + wc, out: wp, cross: 0, split: true },
      { in: wl / (1 + 2 / d) + wh / (1 + 1 / d) + wc / (1 + 1 / d) + wp, out: 0, cross: 0, split: false },
    ];
    trace.nodes.forEach((node, i) => {
      expect(node.i).toBe(i);
      expect(node.in).toBeCloseTo(expected[i]!.in, 12);
      expect(node.out).toBeCloseTo(expected[i]!.out, 12);
      expect(node.cross).toBeCloseTo(expected[i]!.cross, 12);
      expect(node.split).toBe(expected[i]!.split);
    });
    expect(trace.nodes[0]!.out).toBeCloseTo(0.7311 + 0.6606 + 0.4905 + 0.2017, 3);
    expect(trace.splitPoints).toEqual([1, 2]);
  });

  it('makes locating, heating and placing separate stages and picks one skill per stage', async () => {
    // Stage-fit rounds of 8: every fit of the 4 candidates is scored, so every phi can be checked.
    const trace = await selectSkills(mugInput, new TableScorer(mugTable), { batchSize: 8 });
    expect(trace.stages.map((x) => [x.from, x.to, x.tau])).toEqual([
      [0, 1, t[0]],
      [1, 2, t[1]],
      [2, 3, t[2]],
    ]);
    const rho = [1, 2, 1.5, -1];
    for (const stage of trace.stages)
      for (const e of stage.phi) {
        const fit = fits[names[e.candidate]!]![stage.index]!;
        expect(e.fit).toBe(fit);
        expect(e.phi).toBeCloseTo(logSig(rho[e.candidate]!) + logSig(fit), 12);
      }
    expect(trace.stages[1]!.phi[1]!.phi).toBeCloseTo(-0.12693 - 0.04859, 4);
    expect(trace.stages.map((x) => x.winner)).toEqual([0, 1, 2]);
    expect(trace.answer.map((a) => [a.name, a.stages])).toEqual([
      ['locate-object', [0]],
      ['heat-object', [1]],
      ['put-object', [2]],
    ]);
    expect(trace.reason).toBeNull();
  });

  it('prunes stage-fit pairs whose bound log sigma(rho) cannot beat the best phi, with the same answer', async () => {
    // Without the cuts, alignment pairs outside the tgt ranges are scored too (0 here: they cannot matter).
    const unpruned = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const scorer = new TableScorer(mugTable);
    const pruned = await selectSkills(mugInput, scorer, { batchSize: 1 });
    expect(pruned.answer).toEqual(unpruned.answer);
    // Stage 1: heat-object (rho 2) scores phi = logσ(2)+logσ(3) = -0.1755 first; put-object's bound logσ(1.5) = -0.2014.
    const stage1 = pruned.stages[1]!;
    expect(stage1.phi.filter((e) => e.prunedBound !== undefined).map((e) => e.candidate)).toEqual([0, 2, 3]);
    expect(stage1.phi[2]!.prunedBound).toBeCloseTo(logSig(1.5), 12);
    expect(scorer.asked).not.toContain(`stage-fit|${t[1]}|put-object`);
    expect(pruned.counts.pairsPruned).toBeGreaterThan(0);
    expect(pruned.counts.pairs).toBeLessThan(unpruned.counts.pairs);
  });

  it('lets one long edge over the inner nodes block every split: one stage with all sub-tasks', async () => {
    const input: SelectionInput = {
      ...mugInput,
      candidates: [
        skill('make-hot-coffee-drink', 0.9, { precondition: null, completion: E.put }),
        mugInput.candidates[1]!,
      ],
    };
    const table: RTable = {
      'relevance|make-hot-coffee-drink': 3,
      'relevance|heat-object': 0,
      [`align|${s[1]}|${E.put}`]: -1,
      [`align|${s[2]}|${E.put}`]: -1,
      [`align|${s[3]}|${E.put}`]: 5,
      ...Object.fromEntries(
        Object.entries(mugTable).filter(([k]) => k.includes(P.heat) || k.includes(E.heat)),
      ),
      [`stage-fit|${t.join(' ')}|make-hot-coffee-drink`]: 1,
      [`stage-fit|${t.join(' ')}|heat-object`]: 2,
    };
    // Every edge aligned (the alignment cut would leave heat-object's open: w = σ(0) < the margin σ(3)).
    const trace = await selectSkills(input, new TableScorer(table), { alignRound: 0 });
    const [wa, wb] = [sig(3), sig(0)];
    expect(trace.candidates.map((c) => [c.src, c.tgt])).toEqual([
      [0, 3],
      [1, 2],
    ]);
    // i=1: In = 0 (no edge ends by 1); i=2: Out = 0 (no edge starts at or after 2).
    expect(trace.nodes[1]).toMatchObject({ in: 0, cross: wa, split: false });
    expect(trace.nodes[1]!.out).toBeCloseTo(wb, 12);
    expect(trace.nodes[2]).toMatchObject({ out: 0, cross: wa, split: false });
    expect(trace.nodes[2]!.in).toBeCloseTo(wb, 12);
    expect(trace.splitPoints).toEqual([]);
    expect(trace.stages.map((x) => x.tau)).toEqual([t.join(' ')]);
    // phi: logσ(3)+logσ(1) = -0.04859-0.31326 = -0.36185 beats logσ(0)+logσ(2) = -0.69315-0.12693 = -0.82008.
    expect(trace.stages[0]!.phi.map((e) => e.phi)).toEqual(
      [logSig(3) + logSig(1), logSig(0) + logSig(2)].map((x) => expect.closeTo(x, 12)),
    );
    expect(trace.stages[0]!.phi[0]!.phi).toBeCloseTo(-0.36185, 4);
    expect(trace.answer.map((a) => a.name)).toEqual(['make-hot-coffee-drink']);
  });
});

describe('a one-stage task (n = 2)', () => {
  const input: SelectionInput = {
    task: 'rinse the apple',
    parse: {
      subtasks: ['Rinse the apple in the sink.'],
      states: ['The apple is dirty.', 'The apple is clean.'],
    },
    candidates: [
      skill('clean-object', 0.9, {
        precondition: 'The agent holds an object.',
        completion: 'The object is clean.',
      }),
      skill('slice-object', 0.8, { precondition: null, completion: 'The object is sliced.' }),
    ],
  };
  const table: RTable = {
    'relevance|clean-object': 2,
    'relevance|slice-object': 0.5,
    'stage-fit|Rinse the apple in the sink.|clean-object': 1,
    'stage-fit|Rinse the apple in the sink.|slice-object': 3,
  };

  it('has no inner node, one stage, and needs no alignment scores', async () => {
    const scorer = new TableScorer(table);
    const trace = await selectSkills(input, scorer);
    expect(trace.candidates.map((c) => [c.src, c.tgt])).toEqual([
      [0, 1],
      [0, 1],
    ]);
    expect(scorer.asked.some((k) => k.startsWith('align|'))).toBe(false);
    expect(trace.nodes.map((x) => x.split)).toEqual([false, false]);
    expect(trace.stages).toHaveLength(1);
    expect(trace.stages[0]!.tau).toBe('Rinse the apple in the sink.');
    // phi: logσ(2)+logσ(1) = -0.4402 vs logσ(0.5)+logσ(3) = -0.47408-0.04859 = -0.52267
    expect(trace.stages[0]!.phi[0]!.phi).toBeCloseTo(-0.44018, 4);
    expect(trace.stages[0]!.phi[1]!.phi).toBeCloseTo(-0.52267, 4);
    expect(trace.answer.map((a) => a.name)).toEqual(['clean-object']);
  });
});
