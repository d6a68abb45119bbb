// What-if edits in text form (CLI `replay --edit`) and from the API's grouped form.
import { describe, expect, it } from 'vitest';
import { editsFromApi, parseEditArg } from '../../src/core/select/edits';
import { replaySelection } from '../../src/core/select/replay';
import { selectSkills } from '../../src/core/select/select';
import { TableScorer } from './select-fixtures';
import { mugInput, mugTable, s } from './select-mug-fixture';

const trace = await selectSkills(mugInput, new TableScorer(mugTable));

describe('edit arguments', () => {
  it('reads every kind of edit', () => {
    expect(parseEditArg('state:2=The mug is warm.', trace)).toEqual({
      kind: 'state',
      index: 2,
      text: 'The mug is warm.',
    });
    expect(parseEditArg('subtask:0=Look for the mug.', trace)).toEqual({
      kind: 'subtask',
      index: 0,
      text: 'Look for the mug.',
    });
    expect(parseEditArg('pre:heat-object=None', trace)).toEqual({
      kind: 'skill-states',
      name: 'heat-object',
      precondition: null,
    });
    expect(parseEditArg('post:heat-object=Hot = done.', trace)).toEqual({
      kind: 'skill-states',
      name: 'heat-object',
      completion: 'Hot = done.',
    });
    expect(parseEditArg('rho:put-object=-1.5', trace)).toEqual({
      kind: 'score',
      use: 'relevance',
      skill: 'put-object',
      r: -1.5,
    });
    expect(parseEditArg('fit:put-object@Find the mug.=2', trace)).toEqual({
      kind: 'score',
      use: 'stage-fit',
      skill: 'put-object',
      tau: 'Find the mug.',
      r: 2,
    });
    expect(parseEditArg('align:heat-object:1:pre=0.5', trace)).toEqual({
      kind: 'score',
      use: 'align',
      skill: 'heat-object',
      state: 1,
      side: 'precondition',
      r: 0.5,
    });
  });

  it('rejects unknown kinds, skills and numbers with a clear error', () => {
    for (const bad of [
      'state:x=1',
      'colour:a=b',
      'rho:nobody=1',
      'rho:put-object=abc',
      'fit:put-object=1',
      'state:1',
    ])
      expect(() => parseEditArg(bad, trace)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('a precondition and a completion edit of one skill both apply', async () => {
    const edits = [
      parseEditArg('pre:heat-object=None', trace),
      parseEditArg('post:heat-object=Coffee is ready.', trace),
    ];
    const scorer = new TableScorer({}, 0);
    const replayed = await replaySelection(trace, edits, scorer);
    expect(replayed.candidates[1]).toMatchObject({
      precondition: null,
      completion: 'Coffee is ready.',
      src: 0,
    });
    // Only the new completion's alignment over s_1..s_3 was scored.
    expect(scorer.asked).toEqual([1, 2, 3].map((i) => `align|${s[i]}|Coffee is ready.`));
  });

  it('maps the API form by skill id and score key', () => {
    const withIds = {
      ...trace,
      input: {
        ...trace.input,
        candidates: trace.input.candidates.map((c, i) => ({ ...c, skillId: 10 + i })),
      },
    };
    expect(
      editsFromApi(withIds, {
        states: [{ index: 1, text: 'x' }],
        skills: [{ skillId: 11, completion: 'y' }],
        scores: [{ key: 'rho:put-object', r: 3 }],
      }),
    ).toEqual([
      { kind: 'state', index: 1, text: 'x' },
      { kind: 'skill-states', name: 'heat-object', completion: 'y' },
      { kind: 'score', use: 'relevance', skill: 'put-object', r: 3 },
    ]);
  });
});
