// Resolving many conflicts at once: the bar over the ticked conflicts, and the confirmation that first asks the core
// what the resolution would do (a dry run), so it can say how many skills a curator edited it would overwrite.
import { useEffect, useState } from 'react';
import type { ConflictResolution, ResolveConflictsResult } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const verbs: Record<ConflictResolution, string> = {
  'keep-both': 'Keep both for',
  replace: 'Replace',
  skip: 'Skip',
};

/** The edited skills by name, the first few only: a replace over hundreds would otherwise fill the screen. */
function namesOf(items: ResolveConflictsResult['items']): string {
  const names = items.flatMap((i) => i.editedSkills.map((e) => `${e.name}, ${e.status}`));
  const shown = names.slice(0, 8).join('; ');
  return names.length > 8 ? `${shown}; and ${names.length - 8} more` : shown;
}

/** Sticky over the conflicts (bulk.css), so that ticking a row far down still shows what it is ticked for. */
export function ConflictsBulkBar({
  count,
  notShown,
  onChoose,
  onClear,
}: {
  count: number;
  /** Ticked conflicts below the rows shown (Select all ticks every open one). */
  notShown: number;
  onChoose: (resolution: ConflictResolution) => void;
  onClear: () => void;
}) {
  if (count === 0) return null;
  return (
    <div className="bulk-bar sticky" role="toolbar" aria-label="Resolve selected conflicts">
      <strong data-testid="conflicts-selected">{count} selected</strong>
      {notShown > 0 && <span className="muted small">({notShown} of them not shown below)</span>}
      <button onClick={() => onChoose('keep-both')}>Keep both…</button>
      <button onClick={() => onChoose('replace')}>Replace…</button>
      <button onClick={() => onChoose('skip')}>Skip…</button>
      <button className="ghost" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}

export function ResolveManyConfirm({
  ids,
  resolution,
  onDone,
  onCancel,
}: {
  ids: number[];
  resolution: ConflictResolution;
  onDone: (result: ResolveConflictsResult) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const action = useAction();
  const [plan, setPlan] = useState<ResolveConflictsResult | null>(null);
  useEffect(() => {
    setPlan(null);
    void action
      .run(() => client.call('library.resolveConflicts', { ids, resolution, dryRun: true }))
      .then((p) => p && setPlan(p));
  }, [client, ids, resolution]);
  const resolve = async (overwriteEdits: boolean) => {
    const result = await action.run(() =>
      client.call('library.resolveConflicts', { ids, resolution, overwriteEdits }),
    );
    if (result) onDone(result);
  };
  const planned = plan?.items.filter((i) => i.outcome === 'planned') ?? [];
  const edited = planned.filter((i) => i.editedSkills.length > 0);
  const verb = `${verbs[resolution]} ${plural(ids.length, 'conflict')}`;
  return (
    <div className="bulk-confirm" role="alertdialog" aria-label="Confirm resolving conflicts">
      <p>{verb}?</p>
      {!plan && !action.error && <p className="muted small">Checking what this would change…</p>}
      {plan && edited.length === 0 && (
        <p className="muted small" data-testid="conflicts-edits">
          No skill a curator edited or verified is overwritten.
        </p>
      )}
      {plan && edited.length > 0 && (
        <p data-testid="conflicts-edits">
          <strong>
            This would overwrite {plural(plan.editedSkills, 'skill')} a curator edited or verified
          </strong>{' '}
          ({namesOf(edited)}). Their states are kept and each shows “skill changed since” with the diff.
        </p>
      )}
      <div className="row wrap">
        {edited.length > 0 && (
          <button className="primary" autoFocus disabled={action.busy} onClick={() => void resolve(false)}>
            {verbs[resolution]} {planned.length - edited.length}, leave the {edited.length} edited open
          </button>
        )}
        <button
          className={edited.length > 0 ? undefined : 'primary'}
          autoFocus={edited.length === 0}
          disabled={action.busy || !plan}
          onClick={() => void resolve(true)}
        >
          {edited.length > 0 ? `${verb}, overwriting ${plural(edited.length, 'edited skill')}` : verb}
        </button>
        <button onClick={onCancel} disabled={action.busy}>
          Cancel
        </button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}

/** What a bulk resolution did, in one line, naming the conflicts left open and why. */
export function ResolveManyResult({ result }: { result: ResolveConflictsResult }) {
  const failed = result.items.filter((i) => i.outcome === 'failed');
  return (
    <p className="note ok" role="status" data-testid="conflicts-result">
      Resolved {plural(result.resolved, 'conflict')} ({result.resolution})
      {result.editedSkills > 0 && ` · ${plural(result.editedSkills, 'curator-edited skill')} changed`}
      {failed.length > 0 &&
        ` · ${failed.length} left open: ${failed.map((i) => `${i.name || `#${i.id}`} (${i.error?.message})`).join('; ')}`}
    </p>
  );
}
