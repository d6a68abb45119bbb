// Re-parse on the skill page: the question asked before edited/verified states could be replaced, and the last
// failed parse attempt shown beside the states it left alone.
import type { FailedParseAttempt, ReviewStatus } from '../../../shared/api';
import { endpointHint } from '../../../shared/endpoint-hints';

export function needsReplaceChoice(status: ReviewStatus | undefined): boolean {
  return status === 'edited' || status === 'verified';
}

export function ReparseConfirm({
  status,
  busy,
  onKeep,
  onReplace,
}: {
  status: ReviewStatus;
  busy: boolean;
  onKeep: () => void;
  onReplace: () => void;
}) {
  return (
    <div
      className="note warn reparse-confirm"
      role="alertdialog"
      aria-label="Re-parse this skill?"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onKeep();
      }}
    >
      <p>
        This skill has {status} states; re-parsing keeps them unless you choose Replace. Replace sends the
        skill to the LLM again and puts its answer in their place (they stay in the history).
      </p>
      <div className="row">
        <button className="primary" autoFocus onClick={onKeep}>
          Keep them
        </button>
        <button onClick={onReplace} disabled={busy}>
          Replace
        </button>
      </div>
    </div>
  );
}

export function FailedAttemptNote({
  attempt,
  hasStates,
}: {
  attempt: FailedParseAttempt;
  hasStates: boolean;
}) {
  const hint = endpointHint(attempt.problem);
  return (
    <div
      className="error-note failed-attempt"
      data-testid="failed-attempt"
      data-problem={attempt.problem ?? ''}
    >
      <div>
        <strong>
          {hasStates
            ? 'The last re-parse failed; the states above were kept.'
            : 'The last parse failed; edit the states by hand or re-parse.'}
        </strong>{' '}
        <span className="muted small">
          {new Date(attempt.at).toLocaleString()}
          {attempt.model ? ` · ${attempt.model}` : ''}
        </span>
      </div>
      <div data-testid="failed-attempt-reason">{attempt.error}</div>
      {hint && (
        <div className="hint" data-testid="failed-attempt-hint">
          {hint}
        </div>
      )}
      {attempt.rawAnswer !== null && (
        <details>
          <summary>The answer that was refused</summary>
          <pre className="raw" data-testid="failed-attempt-raw">
            {attempt.rawAnswer}
          </pre>
        </details>
      )}
    </div>
  );
}
