// Shows an API error with what the user can do about it.
import { endpointHint, problemOf } from '../../../shared/endpoint-hints';
import type { ApiErrorData } from '../../../shared/errors';

// UNAVAILABLE has no advice of its own: an endpoint that failed or a missing index says so in its message and
// problem; only a method missing from this build (details.notInBuild) gets the build advice.
const advice: Partial<Record<ApiErrorData['code'], string>> = {
  UNAUTHORIZED:
    'The access token is missing or wrong: open the address printed by `skill-curator serve` again.',
  ENDPOINT_UNREACHABLE: 'Check the address in Settings (or that the server is running) and try again.',
  TIMEOUT: 'The call took too long. Try again, or raise the timeout in Settings.',
  NOT_FOUND: 'It may have been removed; go back to the list and reload.',
  INVALID_ARGUMENT: 'Check the values you entered.',
  VALIDATION_FAILED: 'Fix the problems listed and try again.',
  CONFLICT: 'Resolve the conflict first (Library → Conflicts).',
  LLM_ERROR: 'Check the LLM endpoint and model in Settings, then use “Test connection”.',
  MODEL_ERROR: 'Check the model folder in Settings and use “Verify”.',
  CANCELLED: 'It was cancelled; you can start it again.',
  INTERNAL: 'Something went wrong inside the app; the log has the details.',
};

const notInBuild =
  'This feature is not available in this build of the backend yet; the other screens still work.';

function adviceFor(error: ApiErrorData): string | undefined {
  // The thrower knows best: an error whose details carry a hint (e.g. a missing path) gets that one.
  const own = (error.details as { hint?: unknown } | undefined)?.hint;
  if (typeof own === 'string' && own) return own;
  const hint = endpointHint(problemOf(error.details));
  if (hint) return hint;
  if ((error.details as { notInBuild?: unknown } | undefined)?.notInBuild === true) return notInBuild;
  return advice[error.code];
}

export function ErrorNote({ error, onDismiss }: { error: ApiErrorData | null; onDismiss?: () => void }) {
  if (!error) return null;
  const hint = adviceFor(error);
  return (
    <div className="error-note" role="alert" data-code={error.code}>
      <div>
        <strong>{error.message}</strong>
        <span className="muted"> ({error.code})</span>
      </div>
      {hint && <div className="hint">{hint}</div>}
      {onDismiss && (
        <button className="link" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
