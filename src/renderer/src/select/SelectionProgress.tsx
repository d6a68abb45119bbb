// A running selection: pairs scored of the estimated most, and a button that cancels it.
import type { RunProgress } from './use-selection-cost';

export function SelectionProgress({ progress, onCancel }: { progress: RunProgress; onCancel: () => void }) {
  const { done, total, message, cancelling } = progress;
  return (
    <div className="row wrap" data-testid="selection-progress">
      <progress max={total || 1} value={total ? done : undefined} aria-label="Pairs scored" />
      <span className="small">
        {message}
        {total > 0 ? ` · ${done} of at most ${total} pairs` : ''}
      </span>
      <button onClick={onCancel} disabled={cancelling}>
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}
