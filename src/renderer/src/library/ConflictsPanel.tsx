// Open name conflicts from imports, each resolved by the user: keep both, replace the existing skill, or skip.
import { useEffect, useState } from 'react';
import type { ConflictResolution } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';

export function ConflictActions({ id, onResolved }: { id: number; onResolved?: () => void }) {
  const client = useClient();
  const action = useAction();
  const [done, setDone] = useState<ConflictResolution | null>(null);
  if (done) return <span className="badge">resolved: {done}</span>;
  const resolve = async (resolution: ConflictResolution) => {
    const answer = await action.run(() => client.call('library.resolveConflict', { id, resolution }));
    if (answer) {
      setDone(resolution);
      onResolved?.();
    }
  };
  return (
    <span className="conflict-actions">
      <button onClick={() => void resolve('keep-both')} disabled={action.busy}>
        Keep both
      </button>
      <button onClick={() => void resolve('replace')} disabled={action.busy}>
        Replace
      </button>
      <button onClick={() => void resolve('skip')} disabled={action.busy}>
        Skip
      </button>
      <ErrorNote error={action.error} />
    </span>
  );
}

export function ConflictsPanel({ version, onResolved }: { version: number; onResolved: () => void }) {
  const conflicts = useApi('library.conflicts', { includeResolved: false });
  const { reload } = conflicts;
  useEffect(() => reload(), [version, reload]);
  if (conflicts.error) return <ErrorNote error={conflicts.error} />;
  const open = conflicts.data ?? [];
  if (open.length === 0) return null;
  return (
    <section className="panel" aria-label="Conflicts">
      <h2>Conflicts ({open.length})</h2>
      <p className="muted small">
        An import found a skill with the same name but different content. Nothing was overwritten.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Incoming</th>
            <th>Existing</th>
            <th>Resolve</th>
          </tr>
        </thead>
        <tbody>
          {open.map((c) => (
            <tr key={c.id}>
              <td>
                <strong>{c.name}</strong>
                <div className="muted small">{c.relPath}</div>
              </td>
              <td>{c.incomingDescription}</td>
              <td>
                <a href={`#/skill/${c.existingSkillId}`}>open existing</a>
              </td>
              <td>
                <ConflictActions id={c.id} onResolved={onResolved} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
