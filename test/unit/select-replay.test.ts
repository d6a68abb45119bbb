// What-if on the hot-mug trace: edits recompute the answer and only changed pairs reach a scorer.
import { describe, expect, it } from 'vitest';
import { replaySelection } from '../../src/core/select/replay';
import { selectSkills } from '../../src/core/select/select';
import { TableScorer } from './select-fixtures';
import { mugInput, mugTable, s, t } from './select-mug-fixture';

async function storedTrace() {
  // Stage-fit rounds of 8: every fit is recorded, so overrides need no scorer.
  return JSON.parse(
    JSON.stringify(await selectSkills(mugInput, new TableScorer(mugTable), { batchSize: 8 })),
  );
}

describe('replay and what-if', () => {
  it('a score override changes the stage winner without any scorer', async () => {
    const trace = await storedTrace();
    const replayed = await replaySelection(
      trace,
      [{ kind: 'score', use: 'stage-fit', skill: 'clean-object', tau: t[0]!, r: 10 }],
      null,
    );
    // clean-object: logσ(-1) + logσ(10) = -1.3133 < locate-object's logσ(1) + logσ(3) = -0.3619: still locate.
    expect(replayed.answer.map((a) => a.name)).toEqual(['locate-object', 'heat-object', 'put-object']);
    const raised = await replaySelection(
      trace,
      [{ kind: 'score', use: 'relevance', skill: 'clean-object', r: 4 }],
      null,
    );
    // Now clean-object's w and phi change everywhere; stage 1 fit 0: logσ(4)+logσ(0) = -0.7113 vs heat -0.1755.
    expect(raised.candidates[3]!.rho).toBe(4);
    expect(
      raised.scores.find(
        (x) => x.use === 'relevance' && x.doc && (x.doc as { candidate: number }).candidate === 3,
      ),
    ).toMatchObject({ r: 4, override: true });
    expect(raised.stages[1]!.phi[3]!.phi).toBeCloseTo(-0.71131, 4);
    expect(raised.execution.pairsScored).toBe(0);
  });

  it('editing a skill precondition re-aligns only that skill', async () => {
    const trace = await storedTrace();
    const newPre = 'The coffee machine is free.';
    const scorer = new TableScorer({
      [`align|${s[0]}|${newPre}`]: 0,
      [`align|${s[1]}|${newPre}`]: 0,
      [`align|${s[2]}|${newPre}`]: 4,
    });
    const replayed = await replaySelection(
      trace,
      [
        {
          kind: 'skill-states',
          name: 'heat-object',
          precondition: newPre,
          completion: 'The agent holds a heated object.',
        },
      ],
      scorer,
    );
    expect(scorer.asked).toHaveLength(3);
    expect(replayed.candidates[1]).toMatchObject({ src: 2, tgt: 3 });
    expect(replayed.execution.pairsScored).toBe(3);
    expect(replayed.replay?.edits).toHaveLength(1);
  });

  it('replays an llm trace from its recorded answer without asking the LLM again', async () => {
    const trace = await selectSkills(mugInput, null, {
      variant: 'llm',
      k: 2,
      llmModel: 'm',
      llm: async () => '1. put-object\n2. no-such-skill\n3. heat-object',
    });
    const replayed = await replaySelection(JSON.parse(JSON.stringify(trace)), [], null);
    expect(replayed.execution.llmCalled).toBe(false);
    const { execution: _a, replay: _b, ...again } = replayed;
    const { execution: _c, ...original } = trace;
    expect(again).toEqual(original);
    expect(replayed.llm?.notCandidates).toEqual(['no-such-skill']);
  });

  it('an edit that needs new scores with no scorer says so', async () => {
    const trace = await storedTrace();
    await expect(
      replaySelection(trace, [{ kind: 'state', index: 1, text: 'Mug in hand.' }], null),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });

  it('rejects edits that name nothing in the trace', async () => {
    const trace = await storedTrace();
    await expect(
      replaySelection(trace, [{ kind: 'state', index: 9, text: 'x' }], null),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(
      replaySelection(
        trace,
        [{ kind: 'score', use: 'align', skill: 'locate-object', state: 1, side: 'precondition', r: 1 }],
        null,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
