// The lasting Undo of the Library's last bulk action ("Verified 37 skills · Undo"): it stays until undone, dismissed
// or replaced by the next bulk action, however long that takes; after Undo it says what came back and what was left
// as it is because someone changed it since.
import type { BulkChange, BulkUndoResult } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import './sources.css';

export function BulkUndo({
  change,
  onUndone,
  onDismiss,
}: {
  change: BulkChange;
  onUndone(result: BulkUndoResult): void;
  onDismiss(): void;
}) {
  const client = useClient();
  const action = useAction();
  return (
    <div className="undo-bar" role="status" aria-label="Undo bulk action" data-testid="bulk-undo">
      <span>
        {change.label}
        {change.running && <span className="muted"> — Undo once the job has ended</span>}
      </span>
      <button
        className="primary"
        disabled={action.busy || change.running}
        title="Puts each skill back as it was before; skills changed since are left alone"
        onClick={async () => {
          const result = await action.run(() => client.call('bulk.undo', { id: change.id }));
          if (result) onUndone(result);
        }}
      >
        Undo
      </button>
      <button className="ghost" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}

export function BulkUndone({ result, onDismiss }: { result: BulkUndoResult; onDismiss(): void }) {
  return (
    <div
      className={`undo-bar${result.skipped.length ? ' undo-skipped' : ''}`}
      role="status"
      aria-label="Bulk action undone"
      data-testid="bulk-undone"
    >
      <span>
        Undone: {result.change.label} — {result.message}
      </span>
      <button className="ghost" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
