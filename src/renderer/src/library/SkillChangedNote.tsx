// On the skill page: the skill changed in its source after a person edited or verified its states. The states were
// kept; this says so, with the diff one click away and a way to mark it seen.
import { useState } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { UnifiedDiff } from './DiffView';
import './sources.css';

export function SkillChangedNote({ skillId }: { skillId: number }) {
  const client = useClient();
  const change = useApi('sources.skillChange', { skillId });
  const action = useAction();
  const [open, setOpen] = useState(false);
  if (!change.data) return <ErrorNote error={change.error} />;
  return (
    <section className="changed-since" aria-label="Skill changed since">
      <div className="row wrap">
        <strong>Skill changed since its states were {change.data.reviewStatus}</strong>
        <span className="muted small">
          on {new Date(change.data.changedAt).toLocaleString()} · the {change.data.reviewStatus} states were
          kept; check they still fit
        </span>
        <span className="spacer" />
        <button onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          {open ? 'Hide diff' : 'Show diff'}
        </button>
        <button
          className="ghost"
          disabled={action.busy}
          onClick={async () => {
            if (await action.run(() => client.call('sources.dismissChange', { skillId }))) change.reload();
          }}
        >
          Mark as seen
        </button>
      </div>
      {open && <UnifiedDiff lines={change.data.diff} label="What changed in SKILL.md" />}
      <ErrorNote error={action.error} />
    </section>
  );
}
