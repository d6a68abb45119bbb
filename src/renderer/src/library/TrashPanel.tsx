// The deletes the trash keeps (skills deleted by hand, removed by a re-import, whole sources): restore any one, not only
// the last, or delete one or all for good after a confirmation that says how many reviewed states go with them.
import { useState } from 'react';
import type { DeletedInfo } from '../../../shared/api';
import { skillsWord } from '../../../shared/trash-words';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import './sources.css';

function size(d: DeletedInfo): string {
  return d.reviewedCount > 0
    ? `${skillsWord(d.skillCount)}, ${d.reviewedCount} with reviewed states`
    : skillsWord(d.skillCount);
}

/** "Delete all 3 deletes of the trash for good (5 skills)? 2 of them have…", or of one delete, or of the only one. */
function confirmQuestion(label: string | null, deletes: DeletedInfo[], reviewed: number): string {
  const skills = deletes.reduce((n, d) => n + d.skillCount, 0);
  const what =
    label !== null
      ? `“${label}”`
      : deletes.length === 1
        ? `the one delete of the trash (“${deletes[0]!.label}”)`
        : `all ${deletes.length} deletes of the trash`;
  const held =
    reviewed === 0
      ? ''
      : skills === 1
        ? ' Its skill has states a curator edited or verified.'
        : reviewed === 1
          ? ' 1 of them has states a curator edited or verified.'
          : ` ${reviewed} of them have states a curator edited or verified.`;
  return `Delete ${what} for good (${skillsWord(skills)})?${held}`;
}

export function TrashPanel({ onChanged }: { onChanged: () => void }) {
  const client = useClient();
  const trash = useApi('sources.trash', {});
  const action = useAction();
  const [confirm, setConfirm] = useState<number | 'all' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { reload } = trash;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') reload();
  });
  const kept = trash.data ?? [];
  const restore = async (d: DeletedInfo) => {
    const info = await action.run(() => client.call('sources.restoreDeleted', { id: d.id }));
    if (!info) return;
    setDone(`Restored ${info.label} (${skillsWord(info.restoredSkillIds.length)}).`);
    reload();
    onChanged();
  };
  const empty = async (which: number | 'all') => {
    const gone = await action.run(() =>
      client.call('sources.emptyTrash', which === 'all' ? {} : { id: which }),
    );
    setConfirm(null);
    if (!gone) return;
    setDone(`Deleted for good: ${skillsWord(gone.skills)}.`);
    reload();
  };
  const confirmed = confirm === 'all' ? kept : kept.filter((d) => d.id === confirm);
  const reviewed = confirmed.reduce((n, d) => n + d.reviewedCount, 0);
  return (
    <section className="panel" aria-label="Trash">
      <div className="row wrap">
        <h2>Trash</h2>
        <span className="muted small">
          The last 20 deletes, and older ones that hold reviewed states, until you delete them for good.
        </span>
        {kept.length > 0 && (
          <button className="ghost" disabled={action.busy} onClick={() => setConfirm('all')}>
            Empty trash…
          </button>
        )}
      </div>
      {trash.data && kept.length === 0 && <p className="muted small">The trash is empty.</p>}
      {kept.length > 0 && (
        <table className="trash-list">
          <tbody>
            {kept.map((d) => (
              <tr key={d.id} data-testid={`trash-${d.id}`}>
                <td className="muted small">{new Date(d.deletedAt).toLocaleString()}</td>
                <td>{d.label}</td>
                <td className="muted small">{size(d)}</td>
                <td className="row">
                  <button disabled={action.busy} onClick={() => void restore(d)}>
                    Restore
                  </button>
                  <button className="ghost" disabled={action.busy} onClick={() => setConfirm(d.id)}>
                    Delete for good…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {confirm !== null && confirmed.length > 0 && (
        <div className="confirm-box" role="alertdialog" aria-label="Confirm delete for good">
          <p>
            {confirmQuestion(confirm === 'all' ? null : confirmed[0]!.label, confirmed, reviewed)} This cannot
            be undone.
          </p>
          <div className="row">
            <button className="danger primary" disabled={action.busy} onClick={() => void empty(confirm)}>
              Delete for good
            </button>
            <button onClick={() => setConfirm(null)}>Cancel</button>
          </div>
        </div>
      )}
      {done && (
        <p className="note ok" role="status">
          {done}
        </p>
      )}
      <ErrorNote error={action.error ?? trash.error} onDismiss={action.clearError} />
    </section>
  );
}
