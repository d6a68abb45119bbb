// A delete that says what goes before it happens: the skill count, how many were reviewed, and that Undo restores them.
import { useEffect, useState } from 'react';
import type { DeletePreview, DeletedInfo } from '../../../shared/api';
import { evictedNote, goldInNote } from '../../../shared/trash-words';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { showToast } from '../app/toasts';
import { useAction } from '../app/use-api';

export function DeleteConfirm({
  target,
  onDone,
  onCancel,
}: {
  target: { skillIds?: number[]; sourceId?: number };
  onDone: (info: DeletedInfo) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const action = useAction();
  const [preview, setPreview] = useState<DeletePreview | null>(null);
  const key = JSON.stringify(target);
  useEffect(() => {
    void action
      .run(() => client.call('sources.deletePreview', JSON.parse(key)))
      .then((p) => p && setPreview(p));
  }, [client, key]);
  if (!preview) return <ErrorNote error={action.error} />;
  const one = preview.skills === 1 && !preview.sourceLabel;
  const what = preview.sourceLabel
    ? `the source “${preview.sourceLabel}” and its ${preview.skills} skill${preview.skills === 1 ? '' : 's'}`
    : one
      ? `the skill “${preview.names[0]}”`
      : `${preview.skills} skills`;
  const reviewed =
    preview.reviewed === 0
      ? ''
      : one
        ? ' It has reviewed states (edited or verified).'
        : ` ${preview.reviewed} ha${preview.reviewed === 1 ? 's' : 've'} reviewed states (edited or verified).`;
  return (
    <div className="confirm-box" role="alertdialog" aria-label="Confirm delete">
      <p>
        Delete {what}?{reviewed}{' '}
        {one
          ? 'Its states and history go with it; Undo brings everything back.'
          : 'Their states and history go with them; Undo brings everything back.'}
      </p>
      {goldInNote(preview.goldIn) && (
        <p className="small warn-text" data-testid="delete-gold">
          {goldInNote(preview.goldIn)}
        </p>
      )}
      <div className="row">
        <button
          className="danger primary"
          disabled={action.busy}
          onClick={async () => {
            const info = await action.run(() => client.call('sources.delete', target));
            if (!info) return;
            const note = evictedNote(info.evicted);
            if (note) showToast(note);
            onDone(info);
          }}
        >
          Delete {preview.skills} skill{preview.skills === 1 ? '' : 's'}
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
