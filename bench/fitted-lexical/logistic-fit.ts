// L2-regularised logistic regression by Newton's method (IRLS): a handful of features, a few thousand rows, exact
// and deterministic (same rows, same coefficients). Used by bench/fit-lexical-calibration.ts.

export interface LogisticOptions {
  /** L2 penalty on the weights (not the bias), added to the summed log-loss. */
  l2: number;
  /** Weight of each positive row relative to a negative one (1: the sample's own prior). */
  positiveWeight?: number;
  maxIterations?: number;
}

export interface LogisticFit {
  bias: number;
  weights: number[];
  iterations: number;
  /** Mean log-loss per (weighted) row at the solution, penalty excluded. */
  logLoss: number;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

export function fitLogistic(
  rows: readonly number[][],
  labels: readonly boolean[],
  options: LogisticOptions,
): LogisticFit {
  if (rows.length === 0 || rows.length !== labels.length)
    throw new Error('fitLogistic: rows and labels must match and not be empty');
  const d = rows[0]!.length;
  const pw = options.positiveWeight ?? 1;
  // theta[0] is the bias.
  let theta = new Array<number>(d + 1).fill(0);
  let iterations = 0;
  for (; iterations < (options.maxIterations ?? 100); iterations++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    rows.forEach((x, i) => {
      const xi = [1, ...x];
      const p = sigmoid(xi.reduce((s, v, j) => s + v * theta[j]!, 0));
      const w = labels[i] ? pw : 1;
      const g = w * (p - (labels[i] ? 1 : 0));
      const h = w * p * (1 - p);
      for (let j = 0; j <= d; j++) {
        grad[j]! += g * xi[j]!;
        for (let k = 0; k <= d; k++) hess[j]![k]! += h * xi[j]! * xi[k]!;
      }
    });
    for (let j = 1; j <= d; j++) {
      grad[j]! += options.l2 * theta[j]!;
      hess[j]![j]! += options.l2;
    }
    const step = solve(hess, grad);
    theta = theta.map((t, j) => t - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) {
      iterations++;
      break;
    }
  }
  let loss = 0;
  let total = 0;
  rows.forEach((x, i) => {
    const p = sigmoid(theta[0]! + x.reduce((s, v, j) => s + v * theta[j + 1]!, 0));
    const w = labels[i] ? pw : 1;
    loss -= w * Math.log(Math.max(1e-300, labels[i] ? p : 1 - p));
    total += w;
  });
  return { bias: theta[0]!, weights: theta.slice(1), iterations, logLoss: loss / total };
}
