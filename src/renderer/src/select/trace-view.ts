// The selection trace (METHOD.md "The trace") as the lab reads it, from the shared contract.
import type { SelectionResult } from '../../../shared/api';
import type { CandidateTrace, SelectionTrace } from '../../../shared/trace';

export type TraceView = SelectionTrace;
export type CandidateView = CandidateTrace;

export function traceOf(result: SelectionResult): TraceView {
  return result.trace;
}

export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}
