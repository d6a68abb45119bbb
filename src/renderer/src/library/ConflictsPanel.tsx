// Open name conflicts from imports, resolved by the user one by one or ticked and resolved together: keep both, replace
// the existing skill, or skip.
import { Fragment, useEffect, useRef, useState } from 'react';
import type { ConflictResolution, ResolveConflictsResult } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { ConflictsBulkBar, ResolveManyConfirm, ResolveManyResult } from './ConflictsBulk';
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

/**
 * One conflict's buttons. A resolution that would change a skill whose states a curator edited asks first, naming it;
 * the core refuses it until then (overwriteEdits), so nothing of a person's is overwritten silently.
 */
export function ConflictActions({ id, onResolved }: { id: number; onResolved?: () => void }) {
  const client = useClient();
  const action = useAction();
  const [done, setDone] = useState<ConflictResolution | null>(null);
  const [asking, setAsking] = useState<{ resolution: ConflictResolution; edited: string } | null>(null);
  const [failure, setFailure] = useState<ApiErrorData | null>(null);
  if (done) return <span className="badge">resolved: {done}</span>;
  const resolve = async (resolution: ConflictResolution, overwriteEdits = false) => {
    setFailure(null);
    const answer = await action.run(() =>
      client.call('library.resolveConflicts', { ids: [id], resolution, overwriteEdits }),
    );
    const item = answer?.items[0];
    if (!item) return;
    setAsking(null);
    if (item.outcome === 'resolved') {
      setDone(resolution);
      onResolved?.();
    } else if (!overwriteEdits && item.editedSkills.length > 0) {
      const edited = item.editedSkills.map((e) => `“${e.name}” (${e.status})`).join(', ');
      setAsking({ resolution, edited });
    } else if (item.error) setFailure(item.error as ApiErrorData);
  };
  if (asking)
    return (
      <span className="conflict-actions" role="alertdialog" aria-label="Confirm overwriting edits">
        <span className="small">
          {asking.resolution === 'replace' ? 'Replace' : 'Keep both'} overwrites {asking.edited}, whose states
          a curator edited; the states stay and the skill shows “skill changed since”.
        </span>
        <button disabled={action.busy} onClick={() => void resolve(asking.resolution, true)}>
          Overwrite the edited skill
        </button>
        <button autoFocus onClick={() => setAsking(null)}>
          Cancel
        </button>
        <ErrorNote error={action.error} />
      </span>
    );
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
      <ErrorNote error={action.error ?? failure} />
    </span>
  );
}

/** Rows in the DOM at first, and added per "Show more": hundreds of rows pushed the skill list screens down. */
const pageSize = 50;

export function ConflictsPanel({ version }: { version: number }) {
  const conflicts = useApi('library.conflicts', { includeResolved: false });
  const { reload } = conflicts;
  const [comparing, setComparing] = useState<number | null>(null);
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const [asking, setAsking] = useState<{ resolution: ConflictResolution; ids: number[] } | null>(null);
  const [result, setResult] = useState<ResolveConflictsResult | null>(null);
  const [shownAtMost, setShownAtMost] = useState(pageSize);
  // The first answer is asked for on mount; only a later library change asks again.
  const versionLoaded = useRef(version);
  useEffect(() => {
    if (versionLoaded.current === version) return;
    versionLoaded.current = version;
    reload();
  }, [version, reload]);
  const open = conflicts.data ?? [];
  // Only conflicts still open stay ticked (a resolution or a re-import changes the list).
  const chosen = open.filter((c) => ticked.has(c.id)).map((c) => c.id);
  if (conflicts.error) return <ErrorNote error={conflicts.error} />;
  if (open.length === 0 && !result) return null;
  const tick = (id: number, on: boolean) =>
    setTicked((all) => {
      const next = new Set(all);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allTicked = open.length > 0 && chosen.length === open.length;
  const shown = open.slice(0, shownAtMost);
  const hidden = open.length - shown.length;
  const shownIds = new Set(shown.map((c) => c.id));
  return (
    <section className="panel conflicts" aria-label="Conflicts">
      <h2>Conflicts ({open.length})</h2>
      <p className="muted small">
        An import found a skill with the same name but different content. Nothing was overwritten.
      </p>
      {result && <ResolveManyResult result={result} />}
      {asking ? (
        <ResolveManyConfirm
          ids={asking.ids}
          resolution={asking.resolution}
          onCancel={() => setAsking(null)}
          onDone={(done) => {
            // The core says library.changed once for the batch; the Library refreshes on that.
            setResult(done);
            setAsking(null);
            setTicked(new Set());
          }}
        />
      ) : (
        <ConflictsBulkBar
          count={chosen.length}
          notShown={chosen.filter((id) => !shownIds.has(id)).length}
          onChoose={(resolution) => {
            setResult(null);
            setAsking({ resolution, ids: chosen });
          }}
          onClear={() => setTicked(new Set())}
        />
      )}
      {open.length > 0 && (
        <div className="conflicts-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>
                  <label className="small">
                    <input
                      type="checkbox"
                      checked={allTicked}
                      onChange={(e) => setTicked(new Set(e.target.checked ? open.map((c) => c.id) : []))}
                    />{' '}
                    {hidden > 0 ? `Select all ${open.length}, also the ${hidden} not shown` : 'Select all'}
                  </label>
                </th>
                <th>Name</th>
                <th>Incoming</th>
                <th>Existing</th>
                <th>Resolve</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <Fragment key={c.id}>
                  <tr className={ticked.has(c.id) ? 'ticked' : undefined} data-conflict-id={c.id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select conflict ${c.name} at ${c.relPath}`}
                        checked={ticked.has(c.id)}
                        onChange={(e) => tick(c.id, e.target.checked)}
                      />
                    </td>
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
                      {/* The core says library.changed when it is resolved; the Library refreshes on that. */}
                      <ConflictActions id={c.id} />
                    </td>
                  </tr>
                  {comparing === c.id && (
                    <tr>
                      <td colSpan={5}>
                        <ConflictCompare id={c.id} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
          {hidden > 0 && (
            <p className="row small" data-testid="conflicts-more">
              <span className="muted">
                Showing {shown.length} of {open.length}.
              </span>
              <button onClick={() => setShownAtMost((n) => n + pageSize)}>
                Show {Math.min(pageSize, hidden)} more
              </button>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
