// The parts of the selection trace (METHOD.md "The trace") that the lab draws. Mirrors the trace the select engine
// writes; becomes an alias of the shared SelectionTrace once that type lives in src/shared/trace.ts.
import type { SelectionResult } from '../../../shared/api';

export interface CandidateView {
  index: number;
  name: string;
  skillId: number | null;
  recallScore: number;
  precondition: string | null;
  completion: string;
  parseMissing: boolean;
  rho: number | null;
  w: number | null;
  src: number | null;
  tgt: number | null;
  dropped: { reason: string } | null;
}

export interface NodeView {
  i: number;
  in: number;
  out: number;
  cross: number;
  split: boolean;
}

export interface StageView {
  index: number;
  from: number;
  to: number;
  tau: string;
  phi: { candidate: number; fit: number | null; phi: number | null; prunedBound?: number }[];
  winner: number | null;
}

export interface TraceView {
  variant: string;
  k: number | null;
  task: string;
  parse: { subtasks: string[]; states: string[] } | null;
  n: number;
  candidates: CandidateView[];
  nodes: NodeView[];
  splitPoints: number[];
  stages: StageView[];
  ranking: { candidate: number; score: number }[];
  llm: { raw: string; ranked: string[]; notCandidates: string[]; formatError?: string } | null;
  answer: { name: string; skillId: number | null; candidate: number; stages: number[]; rank?: number }[];
  reason: string | null;
  notes: string[];
  models: { recall: string | null; crossEncoder: string | null; llm: string | null };
  counts?: {
    candidates: number;
    inGraph: number;
    pairs: number;
    pairsScored: number;
    pairsPruned: number;
    llmCalls: number;
  };
  timings?: { totalMs: number; scoringMs: number; llmMs: number };
  replay?: { pairsScored: number };
}

export function traceOf(result: SelectionResult): TraceView {
  return result.trace as unknown as TraceView;
}

export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}
