// The Library's lasting Undo, for the newest of the last delete and the last bulk action (Verify, Back to parsed, Tag,
// Re-parse): what it did and an Undo button until dismissed, undone or followed by the next one. Both are read from
// the library, so a delete made on the skill page shows here too, and a reload keeps the bar.
import { useEffect, useState } from 'react';
import type { BulkUndoResult, DeletedInfo } from '../../../shared/api';
import { skillsWord } from '../../../shared/trash-words';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { BulkUndo, BulkUndone } from './BulkUndoBar';
import './sources.css';

const recentMs = 10 * 60 * 1000;

function useDismissed(key: string): [string, (id: string) => void] {
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(key) ?? '');
  useEffect(() => sessionStorage.setItem(key, dismissed), [key, dismissed]);
  return [dismissed, setDismissed];
}

/** `version` changes after each action of the Library (a bulk action's confirmation included). */
export function UndoBar({ onUndone, version }: { onUndone: () => void; version?: number }) {
  const last = useApi('sources.lastDeleted', {});
  const bulk = useApi('bulk.last', {});
  const [dismissed, setDismissed] = useDismissed('undo.dismissed');
  const [bulkDismissed, setBulkDismissed] = useDismissed('bulk-undo.dismissed');
  const [undone, setUndone] = useState<BulkUndoResult | null>(null);
  const { reload } = last;
  const reloadBulk = bulk.reload;
  const change = bulk.data;
  useEffect(() => reloadBulk(), [version, reloadBulk]);
  // The next bulk action replaces what the last Undo said.
  useEffect(() => {
    if (change && undone && undone.change.id < change.id) setUndone(null);
  }, [change, undone]);
  useCuratorEvent((event) => {
    // Library and states changes reach the bar through `version`.
    if (event.type === 'library.changed') reload();
    // A bulk re-parse's Undo waits for its job.
    if (event.type === 'job.updated' && event.job.id === change?.jobId && event.job.status !== 'running')
      reloadBulk();
  });
  const info = last.data;
  // Whichever came last is the one to undo: a delete after a bulk verify replaces its bar, and the other way round.
  const deleteIsNewer = !!info && (!change || Date.parse(info.deletedAt) >= Date.parse(change.at));
  if (change && !deleteIsNewer) {
    if (String(change.id) === bulkDismissed) return null;
    return (
      <BulkUndo
        change={change}
        onDismiss={() => setBulkDismissed(String(change.id))}
        onUndone={(result) => {
          setUndone(result);
          reloadBulk();
          onUndone();
        }}
      />
    );
  }
  if (undone) return <BulkUndone result={undone} onDismiss={() => setUndone(null)} />;
  if (!info || String(info.id) === dismissed || Date.now() - Date.parse(info.deletedAt) > recentMs)
    return null;
  return (
    <DeleteUndo
      info={info}
      onDismiss={() => setDismissed(String(info.id))}
      onUndone={onUndone}
      reload={reload}
    />
  );
}

function DeleteUndo({
  info,
  onDismiss,
  onUndone,
  reload,
}: {
  info: DeletedInfo;
  onDismiss(): void;
  onUndone(): void;
  reload(): void;
}) {
  const client = useClient();
  const action = useAction();
  return (
    <div className="undo-bar" role="status" aria-label="Undo delete">
      <span>
        Deleted {info.label}
        {info.kind === 'source' || info.skillCount > 1 ? ` (${skillsWord(info.skillCount)})` : ''}
      </span>
      <button
        className="primary"
        disabled={action.busy}
        onClick={async () => {
          if (await action.run(() => client.call('sources.undoDelete', {}))) {
            reload();
            onUndone();
          }
        }}
      >
        Undo
      </button>
      <button className="ghost" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
}
