// The selection trace (METHOD.md "The trace") as the lab reads it, from the shared contract.
import type { SelectionResult } from '../../../shared/api';
import { weightsNote } from '../../../shared/presets';
import type { CandidateTrace, SelectionTrace } from '../../../shared/trace';

export type TraceView = SelectionTrace;
export type CandidateView = CandidateTrace;

export function traceOf(result: SelectionResult): TraceView {
  return result.trace;
}

export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

/** The preset and the scorer of each use, one phrase when every use has the same scorer. */
export function describeScorers(trace: TraceView): string {
  if (!trace.preset || !trace.scorers) return '';
  const one = (s: NonNullable<TraceView['scorers']>['align']) =>
    `${s.engine.startsWith(`${s.tier}:`) ? s.engine : `${s.tier} ${s.engine}`}${s.weights ? ` [${s.weights}]` : ''}${s.calibration ? ` (r = ${s.calibration.scale}·(cos − ${s.calibration.center}))` : ''}`;
  const uses = Object.entries(trace.scorers).map(([use, s]) => [use, one(s)] as const);
  const same = uses.every(([, text]) => text === uses[0]![1]);
  const weights = weightsNote(trace.scorers);
  // A model preset with no model behind it scored with the lexical engine: the preset's name alone would say otherwise.
  const offline =
    trace.preset !== 'offline' && Object.values(trace.scorers).every((s) => s.tier === 'lexical')
      ? ', scored offline (no model set up)'
      : '';
  return `preset ${trace.preset}${offline}: ${same ? `${uses[0]![1]} for every use` : uses.map(([u, t]) => `${u} ${t}`).join(', ')}${weights ? ` · ${weights}` : ''}`;
}

/** The engines of a trace, named by what they are: a lexical one is no model. */
export function describeEngines(trace: TraceView): string {
  const lexical = (id: string | null | undefined) => id?.startsWith('lexical:') ?? false;
  const recall = `recall: ${trace.models.recall ?? '—'}${lexical(trace.models.recall) ? ' (keywords)' : ''}`;
  const scorer = lexical(trace.models.crossEncoder)
    ? `scorer: ${trace.models.crossEncoder} (offline, no cross-encoder)`
    : `cross-encoder: ${trace.models.crossEncoder ?? '—'}`;
  return `${recall} · ${scorer}`;
}
