// Fixed r tables for the selection tests: a scorer that answers only pairs listed in its table, so a test also
// proves which pairs the method asked for.
import type { Instruction } from '../../src/core/select/instructions';
import type { ScoreProvider } from '../../src/core/select/scores';
import type { CandidateInput, ScoreUse, SelectionInput } from '../../src/core/select/trace-types';
import type { ScorePair } from '../../src/core/models/ports';

/** Keys: `relevance|<skill name>`, `stage-fit|<tau>|<skill name>`, `align|<state>|<state text of the skill>`. */
export type RTable = Record<string, number>;

function docName(doc: string): string {
  return doc.split(' | ')[0]!;
}

export function tableKey(use: ScoreUse, pair: ScorePair): string {
  if (use === 'relevance') return `relevance|${docName(pair.document)}`;
  if (use === 'stage-fit') return `stage-fit|${pair.query}|${docName(pair.document)}`;
  return `align|${pair.query}|${pair.document}`;
}

export class TableScorer implements ScoreProvider {
  readonly id = 'table:test';
  readonly asked: string[] = [];
  calls = 0;
  /** `fallback`: the r for pairs outside the table (otherwise such a pair is an error). */
  constructor(
    private readonly table: RTable,
    private readonly fallback?: number,
  ) {}

  async score(instruction: Instruction, pairs: ScorePair[]): Promise<number[]> {
    this.calls++;
    return pairs.map((p) => {
      const key = tableKey(instruction.use, p);
      this.asked.push(key);
      const r = this.table[key] ?? this.fallback;
      if (r === undefined) throw new Error(`Not in the r table: ${key}`);
      return r;
    });
  }
}

export function skill(
  name: string,
  recallScore: number,
  states: { precondition: string | null; completion: string } | null,
): CandidateInput {
  return {
    skillId: null,
    name,
    description: `${name} description`,
    body: `Body of ${name}.`,
    recallScore,
    states,
  };
}

export const sig = (x: number): number => 1 / (1 + Math.exp(-x));
export const logSig = (x: number): number => Math.log(sig(x));

/** mulberry32: a small seeded PRNG so property cases are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A scorer whose r is a fixed pseudo-random function of (seed, instruction, pair): a random but stable r table. */
export class HashScorer implements ScoreProvider {
  readonly id = 'hash:test';
  pairs = 0;
  constructor(
    private readonly seed: number,
    /** Round r to halves so ties happen. */
    private readonly coarse: boolean,
  ) {}

  async score(instruction: Instruction, pairs: ScorePair[]): Promise<number[]> {
    this.pairs += pairs.length;
    return pairs.map((p) => {
      let h = this.seed ^ 0x9e3779b9;
      for (const ch of `${instruction.version}\u0001${p.query}\u0001${p.document}`)
        h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      const r = prng(h)() * 10 - 5;
      return this.coarse ? Math.round(r * 2) / 2 : r;
    });
  }
}

/**
 * A random selection input: n states (0..6), 1..`maxCandidates` candidates (default 8), some without a parse or
 * without a precondition.
 */
export function randomInput(rand: () => number, maxCandidates = 8): SelectionInput {
  const n = Math.floor(rand() * 7);
  const stateTexts = ['Start.', 'Tool found.', 'Item held.', 'Item hot.', 'Item placed.', 'Goal.', 'Extra.'];
  const parse =
    n === 0 && rand() < 0.5
      ? null
      : {
          subtasks: Array.from({ length: Math.max(0, n - 1) }, (_, i) => `Sub-task ${i}.`),
          states: Array.from({ length: Math.max(1, n) }, (_, i) => stateTexts[i]!),
        };
  const count = 1 + Math.floor(rand() * maxCandidates);
  const pool = ['Item held.', 'Tool found.', 'Item hot.', 'Something else.'];
  const candidates = Array.from({ length: count }, (_, i) => {
    const kind = rand();
    return skill(
      `skill-${i}`,
      1 - i / 10,
      kind < 0.15
        ? null
        : {
            precondition: kind < 0.4 ? null : pool[Math.floor(rand() * 4)]!,
            completion: pool[Math.floor(rand() * 4)]!,
          },
    );
  });
  return { task: `task ${Math.floor(rand() * 1000)}`, parse, candidates };
}
