// A selection's cost before it runs: pairs per use of r (upper bounds, before the exact cuts), the tokens each engine
// would run, and seconds from the throughput measured on this machine (or a default before any measurement).
import type {
  EngineCostEstimate,
  ScorerTier,
  SelectionEstimate,
  SelectionPreset,
} from '../../shared/presets';
import { presetTiers } from '../../shared/presets';
import type { Db } from '../store/db';
import { approxTokens } from './documents';
import { embedderInstructions, instructions } from './instructions';
import { tokensPerSecond } from './throughput';
import type { ScoreUse, TaskParse, Variant } from './trace-types';

export interface CostInputs {
  preset: SelectionPreset;
  variants: readonly Variant[];
  K: number;
  task: string;
  parse: TaskParse | null;
  /** Cross-encoder prompt budget. */
  maxTokens: number;
  /** The engine id behind each tier the preset uses. */
  engines: Partial<Record<ScorerTier, string>>;
  /** Share of the library whose skill side the index holds for the embedder (1 = all). */
  skillSideCoverage?: number;
  /** False when the task has no parse and no LLM can make one: the stage variants then score relevance only. */
  willParse?: boolean;
  /** Whether an LLM endpoint is set up (default true): the llm variant is left out of a comparison without one. */
  llm?: boolean;
}

/** States assumed before the task is parsed: three sub-tasks, the size of a typical household task. */
export const assumedStates = 4;

interface UsePairs {
  use: ScoreUse;
  pairs: number;
  /** Distinct query texts (what the embedder embeds for this use). */
  queries: string[];
  /** Mean length in characters of the query and document of one pair. */
  queryChars: number;
  docChars: number;
}

function libraryShape(db: Db): { skills: number; docChars: number; stateChars: number } {
  const row = db
    .prepare(
      'SELECT count(*) AS n, avg(length(name) + length(description) + length(body) + 6) AS doc, avg(length(description)) AS descr FROM skills',
    )
    .get() as { n: number; doc: number | null; descr: number | null };
  return { skills: row.n, docChars: row.doc ?? 0, stateChars: row.descr ?? 100 };
}

const mean = (xs: readonly string[]) => (xs.length ? xs.reduce((s, x) => s + x.length, 0) / xs.length : 0);

function pairsByUse(
  inputs: CostInputs,
  k: number,
  n: number,
  stateChars: number,
  docChars: number,
): UsePairs[] {
  const v = new Set(inputs.variants);
  const states =
    inputs.parse?.states ?? Array.from({ length: n }, () => 'x'.repeat(Math.ceil(inputs.task.length / 2)));
  const subtasks = inputs.parse?.subtasks ?? states.slice(1);
  const out: UsePairs[] = [];
  const stageVariant = v.has('full') || v.has('no-graph') || v.has('no-split');
  if (stageVariant || v.has('no-parse'))
    out.push({
      use: 'relevance',
      pairs: k,
      queries: [inputs.task],
      queryChars: inputs.task.length,
      docChars,
    });
  if (v.has('full') && n > 2) {
    // src over s_0..s_(n-2) for every precondition, tgt over what follows src (all n-1 later states when src = 0).
    out.push({
      use: 'align',
      pairs: 2 * k * (n - 1),
      queries: states,
      queryChars: mean(states),
      docChars: stateChars,
    });
  }
  if (n > 1) {
    // Distinct stage texts: one per sub-task (no-split, and full at most), plus full's stages of several sub-tasks
    // when no-split runs too (at most one per two sub-tasks), plus no-graph's whole task.
    const taus: string[] = [];
    if (v.has('full') || v.has('no-split')) taus.push(...subtasks);
    if (v.has('full') && v.has('no-split'))
      for (let i = 0; i + 1 < subtasks.length; i += 2) taus.push(`${subtasks[i]} ${subtasks[i + 1]}`);
    if (v.has('no-graph') && !(subtasks.length === 1 && taus.length === 1)) taus.push(subtasks.join(' '));
    if (taus.length)
      out.push({ use: 'stage-fit', pairs: k * taus.length, queries: taus, queryChars: mean(taus), docChars });
  }
  return out;
}

export function estimateSelection(db: Db, inputs: CostInputs): SelectionEstimate {
  const shape = libraryShape(db);
  const k = Math.min(inputs.K, shape.skills);
  const unparsed = !inputs.parse && inputs.willParse === false;
  const n = inputs.parse ? inputs.parse.states.length : unparsed ? 0 : assumedStates;
  const notes: string[] = [];
  const stageVariants = inputs.variants.some((v) => v === 'full' || v === 'no-graph' || v === 'no-split');
  if (unparsed && stageVariants)
    notes.push(
      'The task has no parse and no LLM is set up to make one: full, no-graph and no-split rank by task relevance alone (type the sub-tasks and states, or set up an LLM)',
    );
  else if (!inputs.parse)
    notes.push(`The task is not parsed yet: the estimate assumes ${assumedStates - 1} sub-tasks`);
  notes.push('Pairs are an upper bound: the exact cuts usually skip a part of the stage-fit pairs');
  if (inputs.variants.includes('llm'))
    notes.push(
      inputs.llm === false
        ? 'The llm variant needs an LLM endpoint and none is set up: it does not run'
        : 'The llm variant’s call to the LLM is not included',
    );
  const uses = pairsByUse(inputs, k, n, shape.stateChars, shape.docChars);
  const tiers = presetTiers[inputs.preset];
  const engines = new Map<ScorerTier, EngineCostEstimate>();
  const entry = (tier: ScorerTier): EngineCostEstimate => {
    let e = engines.get(tier);
    if (!e) {
      const engine = inputs.engines[tier] ?? tier;
      // The cross-encoder slot may hold the lexical engine (the default without models).
      const actual: ScorerTier = engine.startsWith('lexical:') ? 'lexical' : tier;
      const tps = tokensPerSecond(db, actual, engine);
      e = {
        tier: actual,
        engine,
        pairs: 0,
        tokens: 0,
        tokensPerSecond: tps.tokensPerSecond,
        measured: tps.measured,
        seconds: 0,
      };
      engines.set(tier, e);
    }
    return e;
  };
  for (const u of uses) {
    const tier = tiers[u.use];
    const e = entry(tier);
    e.pairs += u.pairs;
    if (tier === 'embedder') {
      // Only the task side is embedded; pairs are dot products.
      const instruction = embedderInstructions[u.use].text;
      e.tokens += u.queries.reduce((s, q) => s + approxTokens(instruction + q) + 2, 0);
    } else {
      const perPair = Math.min(
        inputs.maxTokens,
        40 + approxTokens(instructions[u.use].text) + Math.ceil((u.queryChars + u.docChars) / 4),
      );
      e.tokens += u.pairs * perPair;
    }
  }
  const embedder = engines.get('embedder');
  const coverage = inputs.skillSideCoverage ?? 1;
  if (embedder && coverage < 1) {
    // Skill-side texts the index lacks are embedded during the selection.
    const missing = Math.round(k * (1 - coverage));
    embedder.tokens +=
      missing * (Math.min(512, Math.ceil(shape.docChars / 4)) + 2 * Math.ceil(shape.stateChars / 4));
    notes.push(
      `The index holds the skill side of ${Math.round(coverage * 100)} % of the library: build the index to make the fast preset faster`,
    );
  }
  for (const e of engines.values()) {
    e.tokens = Math.round(e.tokens);
    e.seconds = e.tokens / e.tokensPerSecond;
    if (!e.measured)
      notes.push(`${e.engine} has not been timed on this machine yet: assumed ${e.tokensPerSecond} tokens/s`);
  }
  const list = [...engines.values()];
  return {
    preset: inputs.preset,
    pairs: list.reduce((s, e) => s + e.pairs, 0),
    tokens: list.reduce((s, e) => s + e.tokens, 0),
    seconds: list.reduce((s, e) => s + e.seconds, 0),
    engines: list,
    candidates: k,
    states: n,
    notes,
  };
}
