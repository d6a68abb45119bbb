// The result of an update check: added, changed and removed skills, each with its diff one click away, picked for
// applying (all by default). Changed skills with reviewed states say their states will be kept.
import { useState } from 'react';
import type { ApplyResult, UpdateCheck, UpdateItem } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { UnifiedDiff } from './DiffView';
import './sources.css';

function Item({ item, picked, onToggle }: { item: UpdateItem; picked: boolean; onToggle: () => void }) {
  const [open, setOpen] = useState(false);
  const reviewed = item.reviewStatus === 'edited' || item.reviewStatus === 'verified';
  return (
    <div className="update-item" data-rel-path={item.relPath}>
      <div className="row wrap">
        <label>
          <input type="checkbox" checked={picked} onChange={onToggle} aria-label={`Apply ${item.name}`} />
          <strong>{item.name}</strong>
        </label>
        <span className="muted small">{item.relPath || '(source root)'}</span>
        {reviewed && (
          <span
            className="badge warn"
            title="Applying keeps these states and marks the skill as changed since"
          >
            {item.reviewStatus} states kept
          </span>
        )}
        {item.files.length > 0 && (
          <span className="muted small">{item.files.map((f) => `${f.path} ${f.change}`).join(', ')}</span>
        )}
        <button className="ghost" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          {open ? 'Hide diff' : 'Show diff'}
        </button>
      </div>
      {open && <UnifiedDiff lines={item.diff} label={`Diff of ${item.name}`} />}
    </div>
  );
}

export function UpdateCheckView({
  check,
  onApplied,
}: {
  check: UpdateCheck;
  onApplied: (r: ApplyResult) => void;
}) {
  const client = useClient();
  const action = useAction();
  const all = [...check.added, ...check.changed, ...check.removed];
  const [picked, setPicked] = useState(() => new Set(all.map((i) => i.relPath)));
  const [result, setResult] = useState<ApplyResult | null>(null);
  const toggle = (relPath: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(relPath)) next.delete(relPath);
      else next.add(relPath);
      return next;
    });
  const apply = async (relPaths?: string[]) => {
    const done = await action.run(() => client.call('sources.apply', { sourceId: check.sourceId, relPaths }));
    if (done) {
      setResult(done);
      onApplied(done);
    }
  };
  if (result) {
    return (
      <div className="import-report" aria-label="Applied update">
        <p>
          <strong>Applied:</strong> {result.added.length} added, {result.updated.length} updated,{' '}
          {result.removed.length} removed{result.remaining > 0 ? `, ${result.remaining} left for later` : ''}
          {result.conflicts.length > 0 ? `, ${result.conflicts.length} conflicts to resolve` : ''}.
        </p>
        {result.kept.length > 0 && (
          <ul>
            {result.kept.map((k) => (
              <li key={k.skillId}>
                <a href={`#/skill/${k.skillId}`}>{k.name}</a>: {k.status} states kept — marked “skill changed
                since”.
              </li>
            ))}
          </ul>
        )}
        {result.removed.length > 0 && (
          <p className="muted small">Removed skills can be restored with Undo.</p>
        )}
      </div>
    );
  }
  const groups: [string, UpdateItem[]][] = [
    ['Added upstream', check.added],
    ['Changed upstream', check.changed],
    ['Removed upstream', check.removed],
  ];
  return (
    <div className="update-check" aria-label={`Update check of ${check.sourceLabel}`}>
      <p>
        <strong>{check.sourceLabel}</strong>
        {check.commit && <span className="muted small"> at {check.commit.slice(0, 10)}</span>}:{' '}
        <span data-testid="check-summary">
          {check.added.length} added, {check.changed.length} changed, {check.removed.length} removed,{' '}
          {check.unchanged} unchanged
          {check.rejected.length > 0 ? `, ${check.rejected.length} rejected` : ''}
        </span>
      </p>
      {all.length === 0 ? (
        <p className="muted">Up to date: the library holds what the source holds.</p>
      ) : (
        <>
          {groups.map(
            ([title, items]) =>
              items.length > 0 && (
                <div key={title} className="update-group">
                  <h4>
                    {title} ({items.length})
                  </h4>
                  {items.map((item) => (
                    <Item
                      key={item.relPath}
                      item={item}
                      picked={picked.has(item.relPath)}
                      onToggle={() => toggle(item.relPath)}
                    />
                  ))}
                </div>
              ),
          )}
          <div className="row">
            <button
              className="primary"
              disabled={action.busy || picked.size === 0}
              onClick={() => void apply([...picked])}
            >
              Apply selected ({picked.size})
            </button>
            <button disabled={action.busy} onClick={() => void apply()}>
              Apply all
            </button>
          </div>
        </>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
