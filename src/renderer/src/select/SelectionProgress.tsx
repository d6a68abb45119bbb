// A running selection: pairs scored of the estimated most, and a button that cancels it.
export interface SelectionProgressProps {
  done: number;
  total: number;
  message: string;
  onCancel: () => void;
  cancelling: boolean;
}

export function SelectionProgress({ done, total, message, onCancel, cancelling }: SelectionProgressProps) {
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
