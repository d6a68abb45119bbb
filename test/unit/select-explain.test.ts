// The "why" sentences of a selection, built from hand-made traces: edges, stage wins and runners-up, dropped
// candidates, missed gold skills, and the stage fit that would flip a stage (checked by replaying it).
import { describe, expect, it } from 'vitest';
import { explainSelection } from '../../src/core/select/explain';
import { replaySelection } from '../../src/core/select/replay';
import { selectSkills } from '../../src/core/select/select';
import { fitForLogSigma, stageChallengers } from '../../src/core/select/stage-challengers';
import type { SelectionInput } from '../../src/core/select/trace-types';
import { logSig, skill, TableScorer } from './select-fixtures';
import { mugInput, mugTable, t } from './select-mug-fixture';

const rho = { locate: 1, heat: 2, put: 1.5, clean: -1 };

describe('explainSelection on the hot-mug trace', () => {
  it('says where each picked edge starts and ends, which stage it won and by how much over whom', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const why = explainSelection(trace);
    expect(why.picks.map((p) => [p.name, p.edge, p.stages.map((w) => w.stage)])).toEqual([
      ['locate-object', { src: 0, tgt: 1 }, [0]],
      ['heat-object', { src: 1, tgt: 2 }, [1]],
      ['put-object', { src: 2, tgt: 3 }, [2]],
    ]);
    // Stage 2 (τ = t1): heat φ = logσ(2)+logσ(3); runner-up by φ: put (logσ(1.5)+logσ(-1)) vs clean (logσ(-1)+logσ(0)).
    const heatPhi = logSig(rho.heat) + logSig(3);
    const putPhi = logSig(rho.put) + logSig(-1);
    expect(putPhi).toBeGreaterThan(logSig(rho.clean) + logSig(0));
    const heat = why.picks[1]!;
    expect(heat.stages[0]!.runnerUp?.name).toBe('put-object');
    expect(heat.stages[0]!.margin).toBeCloseTo(heatPhi - putPhi, 12);
    expect(heat.sentence).toBe(
      `heat-object: its precondition matches s1 (r 3.00), it completes s2 (r 4.00); ` +
        `it won stage 2 (s1 → s2) with φ ${heatPhi.toFixed(2)}, beating put-object by ${(heatPhi - putPhi).toFixed(2)} in φ.`,
    );
    expect(why.picks[0]!.sentence).toMatch(
      /^locate-object: it needs nothing \(precondition None\), so it starts at s0, it completes s1 \(r 3\.00\); it won stage 1 \(s0 → s1\)/,
    );
    expect(why.gold).toBeNull();
    expect(why.offlineNote).toBeNull();
  });

  it('with the exact cuts, a pruned runner-up is named with its bound and an "at least" margin', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable), { batchSize: 1 });
    const heat = explainSelection(trace).picks[1]!;
    // Every rival of heat-object in stage 2 was pruned; the closest bound is put-object's logσ(1.5).
    expect(heat.stages[0]!.runnerUp).toEqual({ candidate: 2, name: 'put-object', phi: null });
    expect(heat.stages[0]!.margin).toBeCloseTo(logSig(rho.heat) + logSig(3) - logSig(rho.put), 12);
    expect(heat.sentence).toContain('no rival could reach it (the closest, put-object');
  });

  it('says where each missed gold skill was lost: not recalled, or the stage it lost and by how much', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const why = explainSelection(trace, ['locate-object', 'clean-object', 'descale-machine']);
    expect(why.picks.map((p) => p.gold)).toEqual([true, false, false]);
    const [clean, absent] = why.goldMissed;
    // clean-object's closest stage is stage 2: heat φ − clean φ, against stage 1 and 3 gaps that are larger.
    const gaps = [0, 1, 2].map((j) => {
      const fitsClean = [-1, 0, -3];
      const winnerPhi = [logSig(1) + logSig(3), logSig(2) + logSig(3), logSig(1.5) + logSig(2)][j]!;
      return winnerPhi - (logSig(rho.clean) + logSig(fitsClean[j]!));
    });
    expect(Math.min(...gaps)).toBe(gaps[1]);
    expect(clean).toMatchObject({ where: 'lost-stage', stage: 1, winner: 'heat-object' });
    expect(clean!.deltaPhi).toBeCloseTo(gaps[1]!, 12);
    expect(clean!.sentence).toBe(
      `clean-object lost stage 2 (s1 → s2) to heat-object by ${gaps[1]!.toFixed(2)} in φ.`,
    );
    expect(absent).toMatchObject({ where: 'not-recalled' });
    expect(absent!.sentence).toContain('not among the 4 candidates');
  });

  it("names the stage a missed gold skill's edge lies in when it came closer to winning another", async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const clean = trace.candidates.find((c) => c.name === 'clean-object')!;
    // The graph draws clean-object's edge in stage 3 (s2 → s3); it came closest in stage 2.
    Object.assign(clean, { src: 2, tgt: 3 });
    const [why] = explainSelection(trace, ['clean-object']).goldMissed;
    const stage3Gap = logSig(1.5) + logSig(2) - (logSig(rho.clean) + logSig(-3));
    const stage2Gap = logSig(2) + logSig(3) - (logSig(rho.clean) + logSig(0));
    expect(why!.sentence).toBe(
      `clean-object lost stage 2 (s1 → s2) to heat-object by ${stage2Gap.toFixed(2)} in φ, its closest; ` +
        `in stage 3 (s2 → s3), where its edge lies, it lost to put-object by ${stage3Gap.toFixed(2)} in φ.`,
    );
  });

  it('gives the stage fit that makes a challenger win, and replaying with it flips the stage and the sentence', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const stage0 = explainSelection(trace).stages[0]!;
    const heat = stage0.challengers.find((c) => c.name === 'heat-object')!;
    const locatePhi = logSig(rho.locate) + logSig(3);
    expect(heat.phiNeeded).toBeCloseTo(locatePhi, 12);
    expect(logSig(rho.heat) + logSig(heat.fitNeeded!)).toBeCloseTo(locatePhi, 12);
    expect(heat.sentence).toMatch(
      /^To win stage 1, heat-object needs φ above -0\.36: a stage fit above 1\.33/,
    );
    // clean-object's bound logσ(-1) is below the winner's φ: no fit can do it.
    expect(stage0.challengers.find((c) => c.name === 'clean-object')!.fitNeeded).toBeNull();

    const fitEdit = (r: number) =>
      replaySelection(
        trace,
        [{ kind: 'score', use: 'stage-fit', skill: 'heat-object', tau: t[0]!, r }],
        null,
      );
    const below = await fitEdit(heat.fitNeeded! - 0.01);
    expect(below.stages[0]!.winner).toBe(0);
    const above = await fitEdit(heat.fitNeeded! + 0.01);
    expect(above.stages[0]!.winner).toBe(1);
    const sentence = explainSelection(above).picks.find((p) => p.name === 'heat-object')!.sentence;
    expect(sentence).toContain('it won stage 1 (s0 → s1)');
    expect(sentence).toContain('beating locate-object by 0.00 in φ; it also won stage 2');
  });

  it('offers a scored runner-up before a pruned one when no stage fit can make either win', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    const stage = trace.stages[1]!;
    const rivals = stage.phi.filter((e) => e.candidate !== stage.winner);
    // The winner's φ above every rival's log σ(ρ): no fit can help; one rival pruned with a closer bound.
    stage.phi.find((e) => e.candidate === stage.winner)!.phi = -0.001;
    const [scored, pruned] = rivals;
    Object.assign(pruned!, { phi: null, fit: null, prunedBound: -0.002 });
    trace.candidates[pruned!.candidate]!.rho = 5;
    const challengers = stageChallengers(trace)[1]!.challengers;
    expect(challengers.every((c) => c.fitNeeded === null)).toBe(true);
    expect(challengers[0]!.phi).not.toBeNull();
    expect(challengers.map((c) => c.candidate)).toContain(scored!.candidate);
    expect(challengers.at(-1)!.candidate).toBe(pruned!.candidate);
  });

  it('warns when every skill answered has ρ below 0, and only then', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable, 0), { prune: false });
    expect(explainSelection(trace).weakAnswerNote).toBeNull();
    for (const a of trace.answer) trace.candidates[a.candidate]!.rho = -1.63 - a.candidate;
    expect(explainSelection(trace).weakAnswerNote).toBe(
      'Every skill in this answer has ρ below 0 (the largest -1.63): the scorer finds each more likely irrelevant ' +
        'to the task than relevant, so the library may hold no skill for it.',
    );
    trace.candidates[trace.answer[1]!.candidate]!.rho = 0.2;
    expect(explainSelection(trace).weakAnswerNote).toBeNull();
  });

  it('fitForLogSigma inverts log σ and refuses targets at or above 0', () => {
    for (const r of [-3, 0, 0.5, 4]) expect(fitForLogSigma(logSig(r))).toBeCloseTo(r, 9);
    expect(fitForLogSigma(0)).toBeNull();
    expect(fitForLogSigma(0.1)).toBeNull();
  });
});

describe('explainSelection on other shapes', () => {
  it('names the reason of every dropped candidate and the edge-case pick', async () => {
    const input: SelectionInput = {
      task: 'rinse the apple',
      parse: { subtasks: [], states: ['The apple is dirty.'] },
      candidates: [
        skill('clean-object', 0.9, { precondition: null, completion: 'The object is clean.' }),
        skill('slice-object', 0.8, null),
      ],
    };
    const trace = await selectSkills(
      input,
      new TableScorer({ 'relevance|clean-object': 2, 'relevance|slice-object': 0.5 }),
    );
    const why = explainSelection(trace, ['slice-object']);
    expect(why.dropped.map((d) => d.name)).toEqual(['clean-object', 'slice-object']);
    expect(why.dropped[0]!.sentence).toMatch(/^clean-object was dropped from the graph: src \+ 1 >= n/);
    expect(why.picks[0]!.sentence).toMatch(
      /^clean-object: picked by the edge-case rule \(.*\): its ρ 2\.00 is the largest, ahead of slice-object by 1\.50\.$/,
    );
    expect(why.goldMissed[0]).toMatchObject({ name: 'slice-object', where: 'no-edge' });
  });

  it('explains a ranked answer by rank and score, and a gold skill below the top k', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable), { variant: 'no-parse', k: 1 });
    const why = explainSelection(trace, ['put-object']);
    expect(why.picks[0]!.sentence).toBe('heat-object: ranked #1 by ρ 2.00, ahead of put-object by 0.50.');
    expect(why.goldMissed[0]).toMatchObject({ where: 'below-k' });
    expect(why.goldMissed[0]!.sentence).toBe('put-object was ranked #2, below the top k = 1.');
  });

  it('notes when the offline (lexical) engine produced the scores', async () => {
    const trace = await selectSkills(mugInput, new TableScorer(mugTable));
    const lexical = { tier: 'lexical' as const, engine: 'lexical:bm25', instruction: 'x' };
    const why = explainSelection({
      ...trace,
      scorers: { align: lexical, relevance: lexical, 'stage-fit': lexical },
    });
    expect(why.offlineNote).toMatch(/offline \(lexical\) engine/);
  });
});
