// Shows an API error with what the user can do about it.
import type { ApiErrorData } from '../../../shared/errors';
import { adviceFor } from './error-advice';

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
