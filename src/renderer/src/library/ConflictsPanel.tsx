// Open name conflicts from imports, each resolved by the user: keep both, replace the existing skill, or skip.
import { Fragment, useEffect, useState } from 'react';
import type { ConflictResolution } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { SideBySideDiff } from './DiffView';

/** Both copies, told apart by source and path, side by side before the curator decides. */
export function ConflictCompare({ id }: { id: number }) {
  const diff = useApi('sources.conflictDiff', { conflictId: id });
  if (diff.error) return <ErrorNote error={diff.error} />;
  if (!diff.data) return <p className="muted small">Loading both copies…</p>;
  const { existing, incoming } = diff.data;
  return (
    <SideBySideDiff
      lines={diff.data.diff}
      left={`In the library: ${existing.sourceLabel} · ${existing.relPath || '(source root)'}`}
      right={`Incoming: ${incoming.sourceLabel} · ${incoming.relPath || '(source root)'}`}
      label={`Conflict diff of ${diff.data.name}`}
    />
  );
}

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
  const [comparing, setComparing] = useState<number | null>(null);
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
            <Fragment key={c.id}>
              <tr>
                <td>
                  <strong>{c.name}</strong>
                  <div className="muted small">{c.relPath}</div>
                </td>
                <td>{c.incomingDescription}</td>
                <td>
                  <a href={`#/skill/${c.existingSkillId}`}>open existing</a>
                </td>
                <td>
                  <button
                    className="ghost"
                    onClick={() => setComparing(comparing === c.id ? null : c.id)}
                    aria-expanded={comparing === c.id}
                  >
                    {comparing === c.id ? 'Hide diff' : 'Compare'}
                  </button>
                  <ConflictActions id={c.id} onResolved={onResolved} />
                </td>
              </tr>
              {comparing === c.id && (
                <tr>
                  <td colSpan={4}>
                    <ConflictCompare id={c.id} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </section>
  );
}
