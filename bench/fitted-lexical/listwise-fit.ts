// Fits the two log-odds maps of the lexical cross-scorer jointly, on the selection's own decision rule: for each
// labelled stage, the stage's skill is the argmax over candidates of φ_k = log σ(u_k) + log σ(v_k) (METHOD.md §4),
// with u_k = bias_r + w_r·x_k (task relevance) and v_k = bias_f + w_f·y_k (stage fit). The loss is the softmax
// cross-entropy of the stage's acceptable candidates under φ (listwise learning to rank), plus `pointwise` times the
// log-loss of σ(u) against "acceptable for the task" (so σ(ρ) stays a probability: w_k reads it), plus an L2 penalty
// on the weights' distance from the start (the hand-set map), biases free. Deterministic: full-batch gradient descent with backtracking from a given start.

export interface Candidate {
  /** Relevance features (task, skill). */
  x: readonly number[];
  /** Stage-fit features (stage text, skill). */
  y: readonly number[];
  /** In this stage's group. */
  positive: boolean;
}

export interface RelevanceRow {
  x: readonly number[];
  positive: boolean;
}

export interface ListwiseData {
  /** Each labelled stage's candidates, and the stage's weight in the loss (first stages decide Hit@1). */
  stages: readonly { candidates: readonly Candidate[]; weight: number }[];
  relevance: readonly RelevanceRow[];
}

export interface ListwiseOptions {
  l2: number;
  pointwise: number;
  iterations: number;
  /** Start: [bias, ...weights] for relevance and for stage fit. */
  start: { relevance: readonly number[]; fit: readonly number[] };
}

export interface ListwiseFit {
  relevance: number[];
  fit: number[];
  loss: number;
  iterations: number;
}

const logSigma = (t: number): number => (t >= 0 ? -Math.log1p(Math.exp(-t)) : t - Math.log1p(Math.exp(t)));
const sigma = (t: number): number => 1 / (1 + Math.exp(-t));
const dot = (theta: readonly number[], x: readonly number[]): number =>
  x.reduce((s, v, j) => s + v * theta[j + 1]!, theta[0]!);

function lossAndGradient(
  data: ListwiseData,
  rel: readonly number[],
  fit: readonly number[],
  options: ListwiseOptions,
): { loss: number; gRel: number[]; gFit: number[] } {
  const gRel = new Array<number>(rel.length).fill(0);
  const gFit = new Array<number>(fit.length).fill(0);
  let loss = 0;
  const nStages = Math.max(
    1e-9,
    data.stages.reduce((s, st) => s + st.weight, 0),
  );
  for (const { candidates: stage, weight } of data.stages) {
    if (!stage.some((c) => c.positive)) continue;
    const u = stage.map((c) => dot(rel, c.x));
    const v = stage.map((c) => dot(fit, c.y));
    const phi = u.map((ui, k) => logSigma(ui) + logSigma(v[k]!));
    const top = Math.max(...phi);
    const e = phi.map((p) => Math.exp(p - top));
    const all = e.reduce((s, x) => s + x, 0);
    const pos = e.reduce((s, x, k) => s + (stage[k]!.positive ? x : 0), 0);
    loss += (weight * (Math.log(all) - Math.log(pos))) / nStages;
    stage.forEach((c, k) => {
      const dPhi = (weight * (e[k]! / all - (c.positive ? e[k]! / pos : 0))) / nStages;
      const du = dPhi * (1 - sigma(u[k]!));
      const dv = dPhi * (1 - sigma(v[k]!));
      gRel[0]! += du;
      c.x.forEach((xj, j) => (gRel[j + 1]! += du * xj));
      gFit[0]! += dv;
      c.y.forEach((yj, j) => (gFit[j + 1]! += dv * yj));
    });
  }
  const n = Math.max(1, data.relevance.length);
  for (const row of data.relevance) {
    const u = dot(rel, row.x);
    loss -= (options.pointwise * (row.positive ? logSigma(u) : logSigma(-u))) / n;
    const d = (options.pointwise * (sigma(u) - (row.positive ? 1 : 0))) / n;
    gRel[0]! += d;
    row.x.forEach((xj, j) => (gRel[j + 1]! += d * xj));
  }
  for (const [theta, g, start] of [
    [rel, gRel, options.start.relevance],
    [fit, gFit, options.start.fit],
  ] as const)
    for (let j = 1; j < theta.length; j++) {
      loss += 0.5 * options.l2 * (theta[j]! - start[j]!) ** 2;
      g[j]! += options.l2 * (theta[j]! - start[j]!);
    }
  return { loss, gRel, gFit };
}

export function fitListwise(data: ListwiseData, options: ListwiseOptions): ListwiseFit {
  let rel = [...options.start.relevance];
  let fit = [...options.start.fit];
  let step = 1;
  let current = lossAndGradient(data, rel, fit, options);
  let i = 0;
  for (; i < options.iterations; i++) {
    const norm2 = current.gRel.reduce((s, g) => s + g * g, 0) + current.gFit.reduce((s, g) => s + g * g, 0);
    if (norm2 < 1e-16) break;
    // Backtracking (Armijo): halve the step until the loss falls enough, then try a larger one next time.
    for (;;) {
      const r2 = rel.map((t, j) => t - step * current.gRel[j]!);
      const f2 = fit.map((t, j) => t - step * current.gFit[j]!);
      const next = lossAndGradient(data, r2, f2, options);
      if (next.loss <= current.loss - 0.5 * step * norm2 || step < 1e-12) {
        rel = r2;
        fit = f2;
        current = next;
        step *= 2;
        break;
      }
      step /= 2;
    }
  }
  return { relevance: rel, fit, loss: current.loss, iterations: i };
}
