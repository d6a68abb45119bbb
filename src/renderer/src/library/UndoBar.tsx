// After a delete: what was deleted and an Undo button, until dismissed or undone. It reads the last delete from the
// library, so a delete made on the skill page shows here too.
import { useEffect, useState } from 'react';
import { skillsWord } from '../../../shared/trash-words';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import './sources.css';

const recentMs = 10 * 60 * 1000;

export function UndoBar({ onUndone }: { onUndone: () => void }) {
  const client = useClient();
  const last = useApi('sources.lastDeleted', {});
  const action = useAction();
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem('undo.dismissed') ?? '');
  const { reload } = last;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') reload();
  });
  useEffect(() => sessionStorage.setItem('undo.dismissed', dismissed), [dismissed]);
  const info = last.data;
  if (!info || String(info.id) === dismissed || Date.now() - Date.parse(info.deletedAt) > recentMs)
    return null;
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
      <button className="ghost" onClick={() => setDismissed(String(info.id))} aria-label="Dismiss">
        ×
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
}
