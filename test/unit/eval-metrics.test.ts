// Metrics of an answer against labels, on hand-computed cases.
import { describe, expect, it } from 'vitest';
import { meanMetrics, taskMetrics } from '../../src/core/eval/metrics';

const cost = { crossEncoderPairs: 10, llmCalls: 0, tokens: 500, ms: 3 };

describe('task metrics', () => {
  it('precision, recall, F1 and exact match of a set answer', () => {
    // A = {a, b, x}, G = {a, b, c, d}: hits 2, P = 2/3, R = 2/4, F1 = 2·(2/3)(1/2)/(2/3+1/2) = 4/7.
    const m = taskMetrics(['a', 'b', 'x'], { gold: ['a', 'b', 'c', 'd'] }, cost);
    expect(m.precision).toBeCloseTo(2 / 3, 12);
    expect(m.recall).toBe(0.5);
    expect(m.f1).toBeCloseTo(4 / 7, 12);
    expect(m.exactMatch).toBe(false);
    expect(m.hitAt1).toBe(true); // the first skill answered is gold
    expect(taskMetrics(['x', 'a'], { gold: ['a'] }, cost).hitAt1).toBe(false);
    expect(m.answerSize).toBe(3);
    expect(m.stageCoverage).toBe(0.5); // no groups: each gold skill is a group
    expect(taskMetrics(['b', 'a'], { gold: ['a', 'b'] }, cost).exactMatch).toBe(true);
  });

  it('an empty answer scores zero, not NaN', () => {
    const m = taskMetrics([], { gold: ['a'] }, cost);
    expect([m.precision, m.recall, m.f1, m.hitAt1]).toEqual([0, 0, 0, false]);
  });

  it('stage coverage counts a group as hit by any of its interchangeable members; Hit@1 accepts them too', () => {
    const labels = {
      gold: ['locate', 'heat-microwave', 'put'],
      groups: [['locate', 'search'], ['heat-microwave'], ['put']],
    };
    const m = taskMetrics(['search', 'put'], labels, cost);
    expect(m.stageCoverage).toBeCloseTo(2 / 3, 12);
    expect(m.hitAt1).toBe(true);
    expect(m.precision).toBe(0.5); // search is not gold
    expect(taskMetrics(['heat-stove'], labels, cost).hitAt1).toBe(false);
  });

  it('means over tasks, with the answer-size histogram', () => {
    const a = taskMetrics(['a'], { gold: ['a'] }, { ...cost, ms: 2 });
    const b = taskMetrics(['x', 'y'], { gold: ['a'] }, { ...cost, crossEncoderPairs: 30, ms: 4 });
    const mean = meanMetrics([a, b]);
    expect(mean).toMatchObject({
      tasks: 2,
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
      exactMatch: 0.5,
      hitAt1: 0.5,
      meanAnswerSize: 1.5,
      answerSizes: { '1': 1, '2': 1 },
      crossEncoderPairs: 20,
      msPerTask: 3,
    });
  });

  it('keeps no-fit and avoid-only tasks out of precision and coverage, and counts abstentions apart', () => {
    const hit = taskMetrics(['a'], { gold: ['a'] }, cost);
    const falseAbstention = taskMetrics([], { gold: ['a'] }, cost);
    const rightAbstention = taskMetrics([], { gold: [] }, cost);
    const wrongAnswer = taskMetrics(['z'], { gold: [] }, cost);
    const avoided = taskMetrics(['b'], { gold: [], avoid: ['a'] }, cost);
    const notAvoided = taskMetrics(['a'], { gold: [], avoid: ['a'] }, cost);
    expect(rightAbstention.noFit).toBe(true);
    expect(avoided).toMatchObject({ avoidOnly: true, avoidedAnswered: false });
    expect(notAvoided.avoidedAnswered).toBe(true);
    const mean = meanMetrics([hit, falseAbstention, rightAbstention, wrongAnswer, avoided, notAvoided]);
    expect(mean).toMatchObject({
      tasks: 6,
      // Over the two tasks with gold only: one hit, one empty answer.
      precision: 0.5,
      stageCoverage: 0.5,
      hitAt1: 0.5,
      falseAbstentions: 0.5,
      noFitTasks: 2,
      abstainedOnNoFit: 0.5,
      avoidedAnswered: 0.5,
    });
  });
});
