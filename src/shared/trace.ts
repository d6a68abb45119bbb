// The selection trace (METHOD.md "The trace"): a versioned JSON document that says why an answer was chosen and holds
// enough of the inputs and scores to replay it. Pure types and constants only, so src/shared can re-export them.
import type { ScorerRef, SelectionPreset } from './presets';

export const TRACE_VERSION = 1 as const;

export const variants = ['full', 'no-parse', 'no-graph', 'no-split', 'dense', 'llm'] as const;
export type Variant = (typeof variants)[number];
/** Variants that return a ranked top k (the others return one skill per stage). */
export const rankedVariants: readonly Variant[] = ['no-parse', 'dense', 'llm'];

/** The three uses of r(a, b) in METHOD.md, each with its own instruction. */
export type ScoreUse = 'align' | 'relevance' | 'stage-fit';

export interface TaskParse {
  /** t_0..t_(m-1), in execution order. */
  subtasks: string[];
  /** s_0..s_m: s_0 initial, s_(i+1) after t_i. */
  states: string[];
  /** Set when the request carried the parse: written by the agent that asked over MCP, or by a person. */
  givenBy?: 'agent' | 'manual';
}

export interface SkillStates {
  /** p_k; null when the skill needs nothing. */
  precondition: string | null;
  /** e_k. */
  completion: string;
}

export interface CandidateInput {
  skillId: number | null;
  name: string;
  description: string;
  /** SKILL.md body (front matter excluded); the document text is `name | description | body`. */
  body: string;
  /** cos(E(q), E(m_k)) for dense recall; the recall engine's own score for other engines. */
  recallScore: number;
  /** null: the skill has no parse (METHOD.md edge case: p = None, e = description). */
  states: SkillStates | null;
}

export interface SelectionInput {
  task: string;
  /** null: no task parse (n = 0). */
  parse: TaskParse | null;
  /** Candidates C in recall order (best first). */
  candidates: CandidateInput[];
  /** Why C is empty, when it is (empty library, nothing recalled). */
  emptyReason?: string;
}

export interface InstructionRef {
  use: ScoreUse;
  /** e.g. 'align/1'; part of every cache key. */
  version: string;
}

export interface DroppedEdge {
  reason: string;
}

export interface CandidateTrace {
  index: number;
  name: string;
  skillId: number | null;
  recallScore: number;
  precondition: string | null;
  completion: string;
  /** The skill had no parse; p = None and e = description were used. */
  parseMissing: boolean;
  /** rho_k = r(q, c_k); null where the variant does not score it. */
  rho: number | null;
  /** w_k = sigma(rho_k). */
  w: number | null;
  src: number | null;
  tgt: number | null;
  /** r(s_i, p_k) for i = 0..n-2 (the src argmax); empty when p_k is None or the range has one element. */
  srcScores: number[];
  /** r(s_i, e_k) indexed by state i; null where not scored (outside the tgt range, or a range of one element). */
  tgtScores: (number | null)[];
  dropped: DroppedEdge | null;
  /**
   * Set when the skill's edge was not aligned (exact cut, METHOD-notes "Exact cuts"): it is in the graph and contends
   * for every stage, but src/tgt stay null because no placement of the edges still open could change a split point.
   */
  unplaced?: UnplacedEdge;
}

/** Why an edge was left unaligned: the open edges' weight against the smallest margin of a split decision. */
export interface UnplacedEdge {
  /** Σ w_k over the candidates left unaligned: the most they could add to any In, Out or Cross together. */
  openWeight: number;
  /** The smallest |min(In, Out) − Cross| over the inner nodes, from the aligned edges alone; > openWeight. */
  smallestMargin: number;
}

export interface NodeTrace {
  i: number;
  in: number;
  out: number;
  cross: number;
  /** 1 <= i <= n-2 and In(i) > Cross(i) and Out(i) > Cross(i). */
  split: boolean;
  /**
   * Set when some edges were left unaligned: In/Out/Cross above sum the aligned edges only, and the unaligned ones
   * could add at most this much (Σ their w) to them together, which cannot change `split`.
   */
  openWeight?: number;
}

export interface PhiEntry {
  candidate: number;
  /** r(tau, c_k); null when pruned. */
  fit: number | null;
  /** log sigma(rho_k) + log sigma(fit); null when pruned. */
  phi: number | null;
  /** Set when the pair was not scored because log sigma(rho_k), an upper bound of phi, could not beat the best phi. */
  prunedBound?: number;
}

export interface StageTrace {
  index: number;
  /** The stage spans nodes [from, to] of P. */
  from: number;
  to: number;
  /** t_from..t_(to-1) joined. */
  tau: string;
  phi: PhiEntry[];
  /** Candidate index of the argmax. */
  winner: number | null;
}

export interface RankedEntry {
  candidate: number;
  /** rho (no-parse), the recall score (dense), or the 1-based position in the LLM's list (llm). */
  score: number;
}

export interface LlmSelectorTrace {
  prompt: string;
  raw: string;
  /** Names in the answer's order that are candidates. */
  ranked: string[];
  /** Names the LLM gave that are not candidates: reported, never kept. */
  notCandidates: string[];
  duplicates: string[];
  /** Set when the answer was not in the expected format. */
  formatError?: string;
}

export interface AnswerItem {
  name: string;
  skillId: number | null;
  candidate: number;
  /** Stages this skill won (stage variants). */
  stages: number[];
  /** 1-based rank (ranked variants). */
  rank?: number;
}

export interface RecordedScore {
  use: ScoreUse;
  version: string;
  query: string;
  /** The document text, or the candidate whose skill document `name | description | body` it was. */
  doc: string | { candidate: number };
  r: number;
  truncated?: boolean;
  /** Set when a what-if edit fixed this value by hand. */
  override?: boolean;
}

/** What the method needed; the same on every replay of the same inputs. */
export interface SelectionCounts {
  candidates: number;
  inGraph: number;
  /** Distinct cross-encoder pairs the method needed (after exact cuts). */
  pairs: number;
  /** Stage-fit pairs skipped by the exact bound. */
  pairsPruned: number;
  /** Candidates whose alignment was skipped because their edge could not change a split point (absent: none). */
  unplaced?: number;
  /** Approximate prompt tokens over the needed pairs (chars / 4, capped at the budget). */
  documentTokens: number;
  llmCalls: number;
  llmPromptTokens: number;
}

/** How this particular run went; differs between a run and its replay. */
export interface SelectionExecution {
  /** Pairs sent to the scorer; the rest of `counts.pairs` came from a cache or the recorded trace. */
  pairsScored: number;
  pairsReused: number;
  /** The LLM was asked (false when its recorded answer was reused). */
  llmCalled: boolean;
  totalMs: number;
  scoringMs: number;
  llmMs: number;
}

export type TraceEdit =
  | { kind: 'state'; index: number; text: string }
  | { kind: 'subtask'; index: number; text: string }
  /** Only the given side changes; a skill without a parse starts from p = None, e = its description. */
  | { kind: 'skill-states'; name: string; precondition?: string | null; completion?: string }
  /** r(q, c_skill) := r */
  | { kind: 'score'; use: 'relevance'; skill: string; r: number }
  /** r(tau, c_skill) := r, for the stage whose text is tau (after the other edits). */
  | { kind: 'score'; use: 'stage-fit'; skill: string; tau: string; r: number }
  /** r(s_state, p_skill) or r(s_state, e_skill) := r. */
  | {
      kind: 'score';
      use: 'align';
      skill: string;
      state: number;
      side: 'precondition' | 'completion';
      r: number;
    };

export interface ReplayInfo {
  edits: TraceEdit[];
}

/**
 * "No skill fits" as an answer: when the best candidate's rho (r(task, skill text)) is below the threshold, the
 * selection answers nothing. Not part of METHOD.md: a product rule on top of it, off unless a threshold is set.
 */
export interface AbstentionTrace {
  threshold: number;
  /** The largest rho among the candidates, and whose; null when nothing was scored. */
  bestRho: number | null;
  best: string | null;
  /** The largest stage fit r(stage, winner) of the variant's stages; absent where it has none. */
  bestStageFit?: number;
  abstained: boolean;
  /** What the variant would have answered had it not abstained. */
  wouldAnswer: string[];
}

export interface SelectionTrace {
  traceVersion: typeof TRACE_VERSION;
  variant: Variant;
  /** k for the ranked variants; null for the others. */
  k: number | null;
  task: string;
  parse: TaskParse | null;
  /** Number of states (graph nodes). */
  n: number;
  candidates: CandidateTrace[];
  nodes: NodeTrace[];
  splitPoints: number[];
  stages: StageTrace[];
  ranking: RankedEntry[];
  llm: LlmSelectorTrace | null;
  answer: AnswerItem[];
  /** Why the answer is empty or came from an edge-case rule. */
  reason: string | null;
  /** The abstain rule's check, when a threshold was set (absent in traces made before it, or with none). */
  abstention?: AbstentionTrace;
  notes: string[];
  models: { recall: string | null; crossEncoder: string | null; llm: string | null };
  /** The preset that chose the scorers (absent in traces made before presets). */
  preset?: SelectionPreset;
  /** Which scorer produced each use's scores, with its instruction version and calibration. */
  scorers?: Record<ScoreUse, ScorerRef>;
  instructions: Record<ScoreUse, string>;
  /** Options that shape the trace, reused by a replay. */
  options: {
    maxTokens: number;
    prune: boolean;
    batchSize: number;
    llmBodyChars: number;
    /** Candidates aligned per round before the split bound is checked; absent or 0: all at once (no alignment cut). */
    alignRound?: number;
    /** The abstain threshold on the best rho; absent: none. */
    abstainBelow?: number;
  };
  counts: SelectionCounts;
  execution: SelectionExecution;
  input: SelectionInput;
  scores: RecordedScore[];
  replay?: ReplayInfo;
}
