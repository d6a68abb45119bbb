// METHOD.md "Edge cases (settled here)": each rule, as the user sees it in the answer and the trace.
import { describe, expect, it } from 'vitest';
import { explainSelection } from '../../src/core/select/explain';
import { selectSkills } from '../../src/core/select/select';
import { variants, type SelectionInput } from '../../src/core/select/trace-types';
import { skill, TableScorer } from './select-fixtures';

const two = [
  skill('alpha', 0.9, { precondition: null, completion: 'A is done.' }),
  skill('beta', 0.8, { precondition: 'B may start.', completion: 'B is done.' }),
];
const rho = { 'relevance|alpha': 0.5, 'relevance|beta': 1.5 };

describe('edge cases', () => {
  it('n <= 1 (no parse, or a parse without a transition) answers the single skill with the largest rho', async () => {
    for (const parse of [null, { subtasks: [], states: ['Nothing to do.'] }]) {
      const scorer = new TableScorer(rho);
      const trace = await selectSkills({ task: 'do it', parse, candidates: two }, scorer);
      expect(trace.answer.map((a) => a.name)).toEqual(['beta']);
      // No parse at all is said in words; a parse with one state keeps the formula's condition.
      const why = parse ? /src \+ 1 >= n: the task has 1 state/ : /^the task has no parse \(no LLM is set up/;
      expect(trace.reason).toMatch(parse ? /no transition/ : /^The task has no parse, so no graph/);
      expect(trace.candidates.every((c) => why.test(c.dropped?.reason ?? ''))).toBe(true);
      const missed = explainSelection(trace, ['alpha']).goldMissed[0]!.sentence;
      expect(missed).toMatch(
        parse
          ? /has no edge: src \+ 1 >= n/
          : /was not placed: the task has no parse, .*its ρ 0\.50 is #2 of 2/,
      );
      expect(trace.stages).toEqual([]);
      expect(scorer.asked.every((k) => k.startsWith('relevance|'))).toBe(true);
    }
  });

  it('n <= 1 in no-graph and no-split falls back the same way', async () => {
    for (const variant of ['no-graph', 'no-split'] as const) {
      const trace = await selectSkills(
        { task: 'do it', parse: null, candidates: two },
        new TableScorer(rho),
        { variant },
      );
      expect(trace.answer.map((a) => a.name)).toEqual(['beta']);
      expect(trace.reason).toMatch(/largest rho/);
    }
  });

  it('ties in the largest rho go to the earlier candidate', async () => {
    const trace = await selectSkills(
      { task: 'do it', parse: null, candidates: two },
      new TableScorer({ 'relevance|alpha': 1, 'relevance|beta': 1 }),
    );
    expect(trace.answer.map((a) => a.name)).toEqual(['alpha']);
  });

  it('an empty recall gives an empty answer with a reason in every variant, never an exception', async () => {
    const input: SelectionInput = {
      task: 'do it',
      parse: { subtasks: ['Do it.'], states: ['Start.', 'Done.'] },
      candidates: [],
      emptyReason: 'The library is empty',
    };
    for (const variant of variants) {
      const trace = await selectSkills(input, null, { variant });
      expect(trace.answer).toEqual([]);
      expect(trace.reason).toBe('The library is empty');
    }
    const noReason = await selectSkills({ ...input, emptyReason: undefined }, null);
    expect(noReason.reason).toBe('The recall returned no candidates');
  });

  it('a skill without a parse is aligned as p = None and e = its description, and the trace says so', async () => {
    const input: SelectionInput = {
      task: 'do it',
      parse: { subtasks: ['First.', 'Second.'], states: ['S0.', 'S1.', 'S2.'] },
      candidates: [skill('gamma', 0.7, null)],
    };
    const scorer = new TableScorer({
      'relevance|gamma': 1,
      'align|S1.|gamma description': 2,
      'align|S2.|gamma description': 1,
      'stage-fit|First. Second.|gamma': 0,
    });
    const trace = await selectSkills(input, scorer);
    const c = trace.candidates[0]!;
    expect(c).toMatchObject({
      parseMissing: true,
      precondition: null,
      completion: 'gamma description',
      src: 0,
      tgt: 1,
    });
    expect(trace.notes).toContain(
      'gamma has no parse: used precondition None and its description as completion',
    );
    expect(trace.answer.map((a) => a.name)).toEqual(['gamma']);
  });

  it('the ranked variants read no states, so their trace has no "has no parse" notes', async () => {
    const input: SelectionInput = {
      task: 'do it',
      parse: { subtasks: ['First.'], states: ['S0.', 'S1.'] },
      candidates: [skill('gamma', 0.7, null), ...two],
    };
    for (const variant of ['no-parse', 'dense'] as const) {
      const trace = await selectSkills(input, new TableScorer({ ...rho, 'relevance|gamma': 1 }), { variant });
      expect(trace.answer.length).toBeGreaterThan(0);
      expect(trace.notes.filter((n) => n.includes('has no parse'))).toEqual([]);
    }
  });

  it('rejects a parse whose states are not sub-tasks + 1', async () => {
    await expect(
      selectSkills(
        { task: 'x', parse: { subtasks: ['a'], states: ['s'] }, candidates: two },
        new TableScorer(rho),
      ),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('a scorer that returns NaN or an infinity is a model error, not a silent argmax', async () => {
    await expect(
      selectSkills(
        { task: 'x', parse: null, candidates: two },
        new TableScorer({ 'relevance|alpha': NaN, 'relevance|beta': 1 }),
      ),
    ).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    await expect(
      selectSkills(
        { task: 'x', parse: null, candidates: two },
        new TableScorer({ 'relevance|alpha': Infinity, 'relevance|beta': 1 }),
      ),
    ).rejects.toMatchObject({ code: 'MODEL_ERROR' });
  });
});
