// "Make profile from this selection": turns a Selection lab answer (a stored run) into a profile and opens it.
import { useState } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { navigate } from '../app/router';
import { useAction } from '../app/use-api';

export function MakeProfileButton({ runId }: { runId: number }) {
  const client = useClient();
  const action = useAction();
  const [name, setName] = useState<string | null>(null);
  if (name === null)
    return (
      <button className="ghost small" onClick={() => setName(`selection-${runId}`)}>
        Make profile from this selection
      </button>
    );
  const create = async () => {
    const made = await action.run(() => client.call('profiles.create', { name, fromRun: runId }));
    if (made) navigate({ screen: 'profiles', name: made.profile.name });
  };
  return (
    <form
      className="row inline-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Profile name" />
      <button type="submit" disabled={!name.trim() || action.busy}>
        Create profile
      </button>
      <button type="button" className="ghost" onClick={() => setName(null)}>
        Cancel
      </button>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </form>
  );
}
