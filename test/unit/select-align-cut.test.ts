// The alignment cut on the mug case: the lightest edge (clean-object, w = σ(−1)) cannot change a split point once the
// three heavier edges are aligned, so its alignment pairs are never asked and the trace says why.
import { describe, expect, it } from 'vitest';
import { explainSelection } from '../../src/core/select/explain';
import { renderTrace } from '../../src/core/select/render-trace';
import { replaySelection } from '../../src/core/select/replay';
import { selectSkills } from '../../src/core/select/select';
import { expectTraceFollowsMethod } from '../fixtures/method-oracle';
import { sig, TableScorer } from './select-fixtures';
import { E, mugInput, mugTable, P, t } from './select-mug-fixture';

describe('alignment cut', () => {
  it('leaves the lightest edge unaligned when no placement of it can change a split, with the same answer', async () => {
    const uncut = await selectSkills(mugInput, new TableScorer(mugTable), { alignRound: 0 });
    const scorer = new TableScorer(mugTable);
    const cut = await selectSkills(mugInput, scorer, { alignRound: 3 });
    expect(cut.answer).toEqual(uncut.answer);
    expect(cut.splitPoints).toEqual([1, 2]);
    expect(cut.stages).toEqual(uncut.stages);
    // clean-object's 3 src and 2 tgt pairs are not asked.
    expect(scorer.asked.filter((k) => k.includes(P.clean) || k.includes(E.clean))).toEqual([]);
    expect(uncut.counts.pairs - cut.counts.pairs).toBe(5);
    const clean = cut.candidates[3]!;
    expect([clean.src, clean.tgt, clean.dropped]).toEqual([null, null, null]);
    // Node 1: In = w_locate, Out = w_heat + w_put / (1 + 1/3), Cross = 0: the smallest margin is w_locate = σ(1).
    expect(clean.unplaced!.openWeight).toBeCloseTo(sig(-1), 12);
    expect(clean.unplaced!.smallestMargin).toBeCloseTo(sig(1), 12);
    expect(cut.counts.unplaced).toBe(1);
    expect(cut.counts.inGraph).toBe(4);
    expect(cut.nodes.map((x) => x.openWeight)).toEqual(new Array(4).fill(clean.unplaced!.openWeight));
    expect(cut.options.alignRound).toBe(3);
    expectTraceFollowsMethod(cut);
    expect(renderTrace(cut)).toContain('edge not aligned (could not change a split)');
  });

  it('aligns every edge when the light ones could still tip a node (rounds of 2 stop nowhere short)', async () => {
    const scorer = new TableScorer(mugTable);
    const trace = await selectSkills(mugInput, scorer, { alignRound: 2 });
    // After heat and put (the two heaviest), node 1 has In = 0: unsettled; after the next round nothing is open.
    expect(trace.candidates.every((c) => !c.unplaced && c.src !== null)).toBe(true);
    expect(trace.counts.unplaced).toBeUndefined();
  });

  it('explains a stage won by an unaligned skill, and a replay makes the same cut from the recorded scores', async () => {
    // clean-object wins the last stage on its stage fit alone.
    const table = {
      ...mugTable,
      [`stage-fit|${t[0]}|locate-object`]: 3,
      [`stage-fit|${t[1]}|heat-object`]: 3,
      [`stage-fit|${t[2]}|put-object`]: -6,
      [`stage-fit|${t[2]}|clean-object`]: 6,
    };
    const trace = await selectSkills(mugInput, new TableScorer(table, -3), { alignRound: 3 });
    const uncut = await selectSkills(mugInput, new TableScorer(table, -3), { prune: false });
    expect(trace.answer).toEqual(uncut.answer);
    expect(trace.answer.map((a) => a.name)).toEqual(['locate-object', 'heat-object', 'clean-object']);
    const why = explainSelection(trace).picks.find((p) => p.name === 'clean-object')!;
    expect(why.edge).toBeNull();
    expect(why.sentence).toMatch(
      /^clean-object: its edge was not aligned: the skills left unaligned weigh 0\.27 in w together, less than the smallest split margin 0\.73 .*so wherever it starts and ends the stages are the same; it won stage 3 \(s2 → s3\) with φ /,
    );
    const replayed = await replaySelection(JSON.parse(JSON.stringify(trace)), [], null);
    expect(replayed.candidates).toEqual(trace.candidates);
    expect(replayed.answer).toEqual(trace.answer);
  });
});
