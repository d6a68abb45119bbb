// The fitting behind docs/METHOD-notes.md note 32 (bench/fit-lexical-calibration.ts): L2-regularised logistic
// regression reproduces coefficients known in closed form, and the listwise fit on φ is deterministic and learns to
// put a stage's acceptable candidate first.
import { describe, expect, it } from 'vitest';
import { fitListwise, type ListwiseData } from '../../bench/fitted-lexical/listwise-fit';
import { fitLogistic } from '../../bench/fitted-lexical/logistic-fit';

// One binary feature: x = 0 has 1 positive in 4, x = 1 has 3 in 4. The maximum-likelihood fit is
// bias = logit(1/4) = -ln 3 and bias + w = logit(3/4) = ln 3, so w = 2 ln 3.
const rows = [[0], [0], [0], [0], [1], [1], [1], [1]];
const labels = [true, false, false, false, true, true, true, false];

describe('fitLogistic', () => {
  it('reproduces the closed-form maximum-likelihood coefficients without a penalty', () => {
    const fit = fitLogistic(rows, labels, { l2: 0 });
    expect(fit.bias).toBeCloseTo(-Math.log(3), 8);
    expect(fit.weights[0]).toBeCloseTo(2 * Math.log(3), 8);
  });

  it('is deterministic, and weighting positives moves the bias by the log of the weight', () => {
    const a = fitLogistic(rows, labels, { l2: 0.5 });
    expect(fitLogistic(rows, labels, { l2: 0.5 })).toEqual(a);
    const weighted = fitLogistic(rows, labels, { l2: 0, positiveWeight: 3 });
    expect(weighted.bias).toBeCloseTo(-Math.log(3) + Math.log(3), 8);
    expect(weighted.weights[0]).toBeCloseTo(2 * Math.log(3), 8);
  });

  it('shrinks the weights under the L2 penalty, not the bias alone', () => {
    const free = fitLogistic(rows, labels, { l2: 0 });
    const shrunk = fitLogistic(rows, labels, { l2: 4 });
    expect(Math.abs(shrunk.weights[0]!)).toBeLessThan(Math.abs(free.weights[0]!));
    expect(shrunk.weights[0]!).toBeGreaterThan(0);
  });

  it('rejects rows and labels that do not match', () => {
    expect(() => fitLogistic([[1]], [true, false], { l2: 1 })).toThrow(/must match/);
    expect(() => fitLogistic([], [], { l2: 1 })).toThrow(/must match/);
  });
});

describe('fitListwise', () => {
  // Two stages of three candidates; the acceptable one has the larger stage-fit feature, while its relevance feature
  // is the smallest: the fit must learn to let the stage fit decide.
  const data: ListwiseData = {
    stages: [0, 1].map((s) => ({
      weight: 1,
      candidates: [
        { x: [0.2 + s], y: [3], positive: true },
        { x: [1 + s], y: [1], positive: false },
        { x: [0.5 + s], y: [0], positive: false },
      ],
    })),
    relevance: [
      { x: [0.2], positive: true },
      { x: [1], positive: false },
    ],
  };
  const options = { l2: 0.1, pointwise: 0.1, iterations: 300, start: { relevance: [0, 1], fit: [0, 0] } };
  const phi = (rel: number[], fit: number[], x: number, y: number): number => {
    const logSigma = (t: number): number => -Math.log1p(Math.exp(-t));
    return logSigma(rel[0]! + rel[1]! * x) + logSigma(fit[0]! + fit[1]! * y);
  };

  it('is deterministic and ranks each stage’s acceptable candidate first', () => {
    const fit = fitListwise(data, options);
    expect(fitListwise(data, options)).toEqual(fit);
    for (const { candidates } of data.stages) {
      const scores = candidates.map((c) => phi(fit.relevance, fit.fit, c.x[0]!, c.y[0]!));
      expect(scores.indexOf(Math.max(...scores))).toBe(0);
    }
    expect(fit.fit[1]!).toBeGreaterThan(0);
  });

  it('lowers the loss from its start', () => {
    const none = fitListwise(data, { ...options, iterations: 0 });
    expect(fitListwise(data, options).loss).toBeLessThan(none.loss);
  });
});
