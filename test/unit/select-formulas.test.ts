// Each formula of METHOD.md sections 2-4 and each variant's rule, on cases built so that the nearest wrong formula
// (a tie to the larger index, a range one state too wide, >= for >, a discount by n for n-1, winners in index order)
// gives a different answer. Every case runs with and without the exact cuts.
import { describe, expect, it } from 'vitest';
import { selectSkills } from '../../src/core/select/select';
import { nodeWeights, stageBoundaries, stageSpans } from '../../src/core/select/split';
import type { SelectionInput } from '../../src/core/select/trace-types';
import { logSig, sig, skill, TableScorer, type RTable } from './select-fixtures';

const both = [
  { prune: true, batchSize: 1 },
  { prune: true, batchSize: 8 },
  { prune: false, batchSize: 8 },
];

const S = ['S0.', 'S1.', 'S2.', 'S3.'];
const T = ['T0.', 'T1.', 'T2.'];
const parse4 = { subtasks: T, states: S };

describe('section 2: the execution graph', () => {
  it('src_k ranges over s_0..s_(n-2) only, ties to the smaller index', async () => {
    const input: SelectionInput = {
      task: 'q',
      parse: parse4,
      candidates: [skill('a', 0.9, { precondition: 'P.', completion: 'E.' })],
    };
    // s_3 scores highest but lies outside the range; s_1 and s_2 tie.
    const table: RTable = {
      'relevance|a': 0,
      'align|S0.|P.': 0,
      'align|S1.|P.': 2,
      'align|S2.|P.': 2,
      'align|S3.|P.': 9,
      'align|S2.|E.': 0,
      'align|S3.|E.': 0,
      'stage-fit|T0.|a': 0,
      'stage-fit|T1. T2.|a': 0,
      'stage-fit|T0. T1. T2.|a': 0,
    };
    for (const o of both) {
      const scorer = new TableScorer(table, o.prune ? undefined : 0);
      const trace = await selectSkills(input, scorer, o);
      expect(trace.candidates[0]).toMatchObject({ src: 1, tgt: 2, srcScores: [0, 2, 2] });
      expect(scorer.asked).not.toContain('align|S3.|P.');
    }
  });

  it('tgt_k ranges over s_(src+1)..s_(n-1), ties to the smaller index', async () => {
    const input: SelectionInput = {
      task: 'q',
      parse: parse4,
      candidates: [skill('a', 0.9, { precondition: 'P.', completion: 'E.' })],
    };
    // src = 1; s_0 and s_1 match the completion best but lie before src + 1; s_2 and s_3 tie.
    const table: RTable = {
      'relevance|a': 0,
      'align|S0.|P.': 0,
      'align|S1.|P.': 5,
      'align|S2.|P.': 0,
      'align|S1.|E.': 9,
      'align|S2.|E.': 1,
      'align|S3.|E.': 1,
    };
    for (const o of both) {
      const scorer = new TableScorer(table, 0);
      const trace = await selectSkills(input, scorer, o);
      expect(trace.candidates[0]).toMatchObject({ src: 1, tgt: 2 });
      expect(scorer.asked).not.toContain('align|S0.|E.');
      if (o.prune) expect(scorer.asked).not.toContain('align|S1.|E.');
    }
  });

  it('a precondition of None starts at s_0 without asking, and the argmax of all-equal scores is index 0', async () => {
    const input: SelectionInput = {
      task: 'q',
      parse: parse4,
      candidates: [
        skill('none', 0.9, { precondition: null, completion: 'E.' }),
        skill('flat', 0.8, { precondition: 'P.', completion: 'F.' }),
      ],
    };
    for (const o of both) {
      const scorer = new TableScorer({}, 0.5);
      const trace = await selectSkills(input, scorer, o);
      expect(trace.candidates.map((c) => [c.src, c.tgt])).toEqual([
        [0, 1],
        [0, 1],
      ]);
      expect(scorer.asked.filter((k) => k.startsWith('align|') && k.endsWith('|E.')).length).toBeGreaterThan(
        0,
      );
      expect(scorer.asked.some((k) => k.startsWith('align|S0.|E.'))).toBe(false);
    }
  });

  it('w_k = sigma(rho_k) with rho_k = r(q, c_k)', async () => {
    const input: SelectionInput = {
      task: 'q',
      parse: { subtasks: ['T0.'], states: ['S0.', 'S1.'] },
      candidates: [
        skill('a', 0.9, { precondition: null, completion: 'E.' }),
        skill('b', 0.8, { precondition: null, completion: 'E.' }),
      ],
    };
    const trace = await selectSkills(input, new TableScorer({ 'relevance|a': -2.5, 'relevance|b': 0.75 }, 0));
    expect(trace.candidates.map((c) => [c.rho, c.w])).toEqual([
      [-2.5, expect.closeTo(sig(-2.5), 15)],
      [0.75, expect.closeTo(sig(0.75), 15)],
    ]);
  });
});

describe('section 3: split points', () => {
  it('In and Out discount by the distance over d = n - 1; Cross counts edges strictly over a node', () => {
    const n = 5;
    const d = 4;
    const edges = [
      { src: 0, tgt: 2, w: 0.5 },
      { src: 1, tgt: 4, w: 0.25 },
      { src: 3, tgt: 4, w: 0.5 },
    ];
    const nodes = nodeWeights(n, edges);
    const want = [
      // i = 0: no edge ends by 0; all start at or after 0; nothing passes over.
      { in: 0, out: 0.5 + 0.25 / (1 + 1 / d) + 0.5 / (1 + 3 / d), cross: 0 },
      // i = 1: edge 1->4 starts here (Out, not Cross); edge 0->2 passes over.
      { in: 0, out: 0.25 + 0.5 / (1 + 2 / d), cross: 0.5 },
      // i = 2: edge 0->2 ends here (In, discount 1, not Cross); edge 1->4 passes over.
      { in: 0.5, out: 0.5 / (1 + 1 / d), cross: 0.25 },
      // i = 3: edge 3->4 starts here; 1->4 passes over.
      { in: 0.5 / (1 + 1 / d), out: 0.5, cross: 0.25 },
      { in: 0.5 / (1 + 2 / d) + 0.25 + 0.5, out: 0, cross: 0 },
    ];
    nodes.forEach((node, i) => {
      expect(node.i).toBe(i);
      expect(node.in).toBeCloseTo(want[i]!.in, 14);
      expect(node.out).toBeCloseTo(want[i]!.out, 14);
      expect(node.cross).toBeCloseTo(want[i]!.cross, 14);
    });
    expect(nodes.map((x) => x.split)).toEqual([false, false, true, true, false]);
  });

  it('a node splits only when In > Cross and Out > Cross strictly', () => {
    // i = 1: In = 0.25 = Cross (edge 0->3), Out = 0.9 / (1 + 1/3) > Cross.
    const inTie = nodeWeights(4, [
      { src: 0, tgt: 1, w: 0.25 },
      { src: 2, tgt: 3, w: 0.9 },
      { src: 0, tgt: 3, w: 0.25 },
    ]);
    expect(inTie[1]).toMatchObject({ in: 0.25, cross: 0.25, split: false });
    expect(inTie[1]!.out).toBeGreaterThan(0.25);
    // i = 2: Out = 0.25 = Cross (edge 1->3), In = 0.9 > Cross.
    const outTie = nodeWeights(4, [
      { src: 0, tgt: 2, w: 0.9 },
      { src: 2, tgt: 3, w: 0.25 },
      { src: 1, tgt: 3, w: 0.25 },
    ]);
    expect(outTie[2]).toMatchObject({ in: 0.9, out: 0.25, cross: 0.25, split: false });
    // One more ulp of weight on the in-edge and the node splits.
    const past = nodeWeights(4, [
      { src: 0, tgt: 1, w: 0.25000000000000006 },
      { src: 2, tgt: 3, w: 0.9 },
      { src: 0, tgt: 3, w: 0.25 },
    ]);
    expect(past[1]!.split).toBe(true);
  });

  it('only the inner nodes 1..n-2 can split, whatever the weights at the ends', () => {
    // Not a graph buildGraph makes (an edge into s_0, one out of s_(n-1)): the rule is checked on its own.
    const nodes = nodeWeights(3, [
      { src: 0, tgt: 0, w: 1 },
      { src: 2, tgt: 2, w: 1 },
      { src: 0, tgt: 1, w: 0.5 },
      { src: 1, tgt: 2, w: 0.5 },
    ]);
    expect(nodes[0]!.in).toBeGreaterThan(nodes[0]!.cross);
    expect(nodes[0]!.out).toBeGreaterThan(nodes[0]!.cross);
    expect(nodes[2]!.in).toBeGreaterThan(nodes[2]!.cross);
    expect(nodes[2]!.out).toBeGreaterThan(nodes[2]!.cross);
    expect(nodes.map((x) => x.split)).toEqual([false, true, false]);
  });

  it('P = {0} ∪ splits ∪ {n-1} ascending; stage [a, b] has tau = t_a..t_(b-1) joined in order by a space', () => {
    expect(stageBoundaries(5, [3, 1])).toEqual([0, 1, 3, 4]);
    expect(stageBoundaries(2, [])).toEqual([0, 1]);
    expect(stageSpans([0, 1, 3, 4], ['A.', 'B.', 'C.', 'D.'])).toEqual([
      { from: 0, to: 1, tau: 'A.' },
      { from: 1, to: 3, tau: 'B. C.' },
      { from: 3, to: 4, tau: 'D.' },
    ]);
  });
});

describe('section 4: stage-wise selection', () => {
  // Two skills whose edges both run 0 -> 3: one stage over all three sub-tasks.
  const twins = (names: string[]): SelectionInput => ({
    task: 'q',
    parse: parse4,
    candidates: names.map((n, i) => skill(n, 0.9 - i / 10, { precondition: null, completion: 'E.' })),
  });
  const graphTable: RTable = { 'align|S1.|E.': 0, 'align|S2.|E.': 0, 'align|S3.|E.': 1 };

  it('phi_k = log sigma(rho_k) + log sigma(r(tau, c_k)), and the stage takes the argmax', async () => {
    const table: RTable = {
      ...graphTable,
      'relevance|a': 2,
      'relevance|b': -1,
      'stage-fit|T0. T1. T2.|a': -3,
      'stage-fit|T0. T1. T2.|b': 4,
    };
    for (const o of both) {
      const trace = await selectSkills(twins(['a', 'b']), new TableScorer(table), o);
      expect(trace.stages).toHaveLength(1);
      const phi = [logSig(2) + logSig(-3), logSig(-1) + logSig(4)];
      expect(trace.stages[0]!.phi.map((e) => [e.fit, e.phi])).toEqual([
        [-3, expect.closeTo(phi[0]!, 14)],
        [4, expect.closeTo(phi[1]!, 14)],
      ]);
      // -3.1755 vs -1.3315: b wins although a has the larger rho.
      expect(trace.stages[0]!.winner).toBe(1);
      expect(trace.answer.map((x) => x.name)).toEqual(['b']);
    }
  });

  it('a tie in phi goes to the smaller candidate index, in every variant and with or without cuts', async () => {
    const table: RTable = {
      ...graphTable,
      'relevance|a': 1,
      'relevance|b': 1,
      'relevance|c': 1,
      'stage-fit|T0. T1. T2.|a': 0.5,
      'stage-fit|T0. T1. T2.|b': 2,
      'stage-fit|T0. T1. T2.|c': 2,
      ...Object.fromEntries(
        ['T0.', 'T1.', 'T2.'].flatMap((t) => ['a', 'b', 'c'].map((n) => [`stage-fit|${t}|${n}`, 1])),
      ),
    };
    for (const variant of ['full', 'no-graph', 'no-split'] as const)
      for (const o of both) {
        const trace = await selectSkills(twins(['a', 'b', 'c']), new TableScorer(table), { ...o, variant });
        // full and no-graph: b and c tie above a; no-split: all three tie in each stage.
        expect(trace.answer.map((x) => x.name)).toEqual([variant === 'no-split' ? 'a' : 'b']);
      }
  });

  it('a phi tie between different rho and fit still goes to the smaller index, whichever is scored first', async () => {
    // phi_a = logσ(0.5) + logσ(2) and phi_b = logσ(2) + logσ(0.5): equal in floating point. b has the larger rho, so
    // it is scored first.
    const table: RTable = {
      ...graphTable,
      'relevance|a': 0.5,
      'relevance|b': 2,
      'stage-fit|T0. T1. T2.|a': 2,
      'stage-fit|T0. T1. T2.|b': 0.5,
    };
    for (const o of both) {
      const trace = await selectSkills(twins(['a', 'b']), new TableScorer(table), o);
      const [a, b] = trace.stages[0]!.phi;
      expect(a!.phi).toBe(b!.phi);
      expect(trace.answer.map((x) => x.name)).toEqual(['a']);
    }
  });

  it('the answer is the stage winners in stage order, repeats removed, each with the stages it won', async () => {
    // no-split: winners z, a, z over stages 0, 1, 2 (z is the last candidate).
    const input: SelectionInput = {
      task: 'q',
      parse: parse4,
      candidates: ['a', 'm', 'z'].map((n, i) =>
        skill(n, 0.9 - i / 10, { precondition: null, completion: 'E.' }),
      ),
    };
    const fit = { a: [0, 3, 0], m: [-1, -1, -1], z: [3, 0, 3] };
    const table: RTable = {
      'relevance|a': 0,
      'relevance|m': 0,
      'relevance|z': 0,
      ...Object.fromEntries(
        Object.entries(fit).flatMap(([n, r]) => r.map((v, i) => [`stage-fit|${T[i]}|${n}`, v])),
      ),
    };
    for (const o of both) {
      const trace = await selectSkills(input, new TableScorer(table), { ...o, variant: 'no-split' });
      expect(trace.stages.map((s) => s.winner)).toEqual([2, 0, 2]);
      expect(trace.answer.map((x) => [x.name, x.stages])).toEqual([
        ['z', [0, 2]],
        ['a', [1]],
      ]);
    }
  });
});

describe('variants and the fallback: ties to the smaller index', () => {
  const flat: SelectionInput = {
    task: 'q',
    parse: null,
    candidates: ['a', 'b', 'c'].map((n) => skill(n, 0.5, { precondition: null, completion: 'E.' })),
  };
  const rho: RTable = { 'relevance|a': 0, 'relevance|b': 1, 'relevance|c': 1 };

  it('n <= 1 answers the largest rho, the earlier candidate on a tie', async () => {
    for (const variant of ['full', 'no-graph', 'no-split'] as const) {
      const trace = await selectSkills(flat, new TableScorer(rho), { variant });
      expect(trace.answer.map((x) => x.name)).toEqual(['b']);
    }
  });

  it('no-parse ranks by rho and dense by the recall score, ties in recall order', async () => {
    const noParse = await selectSkills(flat, new TableScorer(rho), { variant: 'no-parse', k: 3 });
    expect(noParse.answer.map((x) => [x.name, x.rank])).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    const dense = await selectSkills(
      { ...flat, candidates: flat.candidates.map((c, i) => ({ ...c, recallScore: [0.2, 0.7, 0.7][i]! })) },
      null,
      { variant: 'dense', k: 2 },
    );
    expect(dense.answer.map((x) => x.name)).toEqual(['b', 'c']);
  });

  it('no-graph asks no alignment and makes one stage [0, n-1]; no-split makes every node a boundary', async () => {
    const input: SelectionInput = { ...flat, parse: parse4 };
    const scorer = new TableScorer({ ...rho }, 0);
    const noGraph = await selectSkills(input, scorer, { variant: 'no-graph' });
    expect(scorer.asked.some((k) => k.startsWith('align|'))).toBe(false);
    expect(noGraph.stages.map((s) => [s.from, s.to, s.tau])).toEqual([[0, 3, 'T0. T1. T2.']]);
    expect(noGraph.candidates.every((c) => c.src === null && c.dropped === null)).toBe(true);
    const noSplit = await selectSkills(input, new TableScorer({ ...rho }, 0), { variant: 'no-split' });
    expect(noSplit.stages.map((s) => [s.from, s.to, s.tau])).toEqual([
      [0, 1, 'T0.'],
      [1, 2, 'T1.'],
      [2, 3, 'T2.'],
    ]);
  });

  it('the llm variant takes the top k of the ranked names', async () => {
    const trace = await selectSkills(flat, null, {
      variant: 'llm',
      k: 2,
      llm: async () => '1. c\n2. a\n3. b',
    });
    expect(trace.answer.map((x) => [x.name, x.rank])).toEqual([
      ['c', 1],
      ['a', 2],
    ]);
  });
});
