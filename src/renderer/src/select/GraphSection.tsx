// The focused variant's picture and its reasons: the offline-engine banner, the execution graph, the answer with its
// sentences (why each skill, missed gold, what would flip a stage), the run's notes and the glossary.
import type { ReactNode } from 'react';
import type { SelectionResult, Variant } from '../../../shared/api';
import { rankedVariants } from '../../../shared/trace';
import type { ApiErrorData } from '../../../shared/errors';
import { localModelsPlace } from '../../../shared/settings-places';
import { ErrorNote } from '../app/ErrorNote';
import { ExecutionGraph } from './ExecutionGraph';
import { Glossary } from './Glossary';
import { traceOf } from './trace-view';
import { WhyPanel, type FitTry } from './WhyPanel';
import { countOf } from '../../../shared/count-words';

/** What a ranked variant ranks by: it reads no states, so it has no graph to draw. */
const rankedBy: Partial<Record<Variant, string>> = {
  'no-parse': 'task relevance (ρ)',
  dense: 'recall similarity',
  llm: 'the LLM’s order',
};

export function GraphSection({
  shown,
  original,
  replayed,
  gold,
  busy,
  error,
  onDismissError,
  onTryFit,
}: {
  shown: SelectionResult;
  original: SelectionResult | undefined;
  replayed: boolean;
  gold: ReadonlySet<string>;
  busy: boolean;
  error: ApiErrorData | null;
  onDismissError: () => void;
  onTryFit?: (t: FitTry) => void;
}): ReactNode {
  const trace = traceOf(shown);
  const names = (r: SelectionResult | undefined) => (r ? r.answer.map((a) => a.name).join(', ') : '');
  const ranked = rankedVariants.includes(shown.variant);
  return (
    <section className="panel" aria-label="Execution graph">
      {shown.why?.weakAnswerNote && (
        <p className="note warn small" role="note" data-testid="weak-answer-note">
          {shown.why.weakAnswerNote}
        </p>
      )}
      {shown.why?.offlineNote && (
        <div className="offline-banner" role="note" data-testid="offline-banner">
          {shown.why.offlineNote}{' '}
          <a href="#/settings" className="small">
            {localModelsPlace}
          </a>
        </div>
      )}
      <div className="row wrap">
        <h2>
          {shown.variant}: {ranked ? 'ranking' : 'execution graph'}
        </h2>
        {replayed && <span className="badge status-edited">what-if</span>}
        <span className="spacer" />
        <span className="muted small">
          {countOf(trace.candidates.length, 'candidate')}
          {!ranked &&
            `, ${trace.counts.inGraph} in the graph · split points: ${
              trace.splitPoints.length ? trace.splitPoints.map((i) => `s${i}`).join(', ') : 'none'
            }`}
        </span>
      </div>
      {ranked ? (
        <p className="muted small" data-testid="ranked-note">
          {shown.variant} reads no states: ranked by {rankedBy[shown.variant]}, top k = {trace.k ?? '—'}.
        </p>
      ) : (
        <ExecutionGraph trace={trace} gold={gold} />
      )}
      <div className="answer-line" data-testid="answer">
        <strong>Answer:</strong> {names(shown) || <em>empty</em>}
        {replayed && (
          <span className="muted small">
            {' '}
            (was: {names(original) || 'empty'}; {countOf(trace.execution.pairsScored, 'pair')} scored again)
          </span>
        )}
      </div>
      <WhyPanel why={shown.why} busy={busy} onTryFit={onTryFit} />
      {trace.reason && <p className="muted small">{trace.reason}</p>}
      {trace.notes.length > 0 && (
        <details className="notes">
          <summary className="muted small">
            {trace.notes.length} note{trace.notes.length === 1 ? '' : 's'} on this run
          </summary>
          <ul className="small">
            {trace.notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </details>
      )}
      <ErrorNote error={error} onDismiss={onDismissError} />
      <Glossary />
    </section>
  );
}
