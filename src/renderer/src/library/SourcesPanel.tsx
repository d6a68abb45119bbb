// Sources and keeping them in sync: each source with its Git origin or folder watch, a pending update a watch saw,
// Check for updates (then apply all or some), and delete with a confirmation.
import { useState } from 'react';
import type { SourceInfo, SourceSync, UpdateCheck } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { AddGitForm } from './AddGitForm';
import { DeleteConfirm } from './DeleteConfirm';
import { UpdateCheckView } from './UpdateCheckView';
import './sources.css';

function Origin({ source, sync }: { source: SourceInfo; sync: SourceSync | undefined }) {
  if (sync?.git) {
    return (
      <span className="muted small">
        Git {sync.git.url}
        {sync.git.ref ? ` @ ${sync.git.ref}` : ''}
        {sync.git.subdir ? ` / ${sync.git.subdir}` : ''}
        {sync.git.commit ? ` · ${sync.git.commit.slice(0, 10)}` : ''}
        {sync.git.usesToken ? ' · token kept' : ''}
      </span>
    );
  }
  return (
    <span className="muted small">
      {source.kind} {source.uri}
    </span>
  );
}

function SourceRow({
  source,
  sync,
  onChanged,
}: {
  source: SourceInfo;
  sync: SourceSync | undefined;
  onChanged: () => void;
}) {
  const client = useClient();
  const action = useAction();
  const [check, setCheck] = useState<UpdateCheck | null>(null);
  const [confirming, setConfirming] = useState(false);
  const canCheck = source.kind === 'folder' || !!sync?.git;
  const canWatch = source.kind === 'folder' && !sync?.git;
  const runCheck = async () => {
    const answer = await action.run(() => client.call('sources.check', { sourceId: source.id }));
    if (answer) setCheck(answer);
  };
  return (
    <>
      <tr className="source-row" data-source-id={source.id}>
        <td>
          <strong>{source.label}</strong>
          <div>
            <Origin source={source} sync={sync} />
          </div>
          {sync?.pending && (
            <span className="badge pending" data-testid="pending-update">
              pending update: {sync.pending.added} added, {sync.pending.changed} changed,{' '}
              {sync.pending.removed} removed
            </span>
          )}
          {sync?.watch && sync.watch.state !== 'watching' && (
            <div
              className="badge warn long"
              data-testid="watch-state"
              title={sync.watch.message ?? undefined}
            >
              {sync.watch.state === 'waiting' ? 'watch waiting: ' : 'watch stopped: '}
              {sync.watch.message}
            </div>
          )}
        </td>
        <td className="num">{source.skillCount}</td>
        <td>
          <div className="row wrap">
            {canCheck && (
              <button onClick={() => void runCheck()} disabled={action.busy}>
                {action.busy ? 'Checking…' : sync?.pending ? 'Review pending update' : 'Check for updates'}
              </button>
            )}
            {canWatch && (
              <button
                disabled={action.busy}
                onClick={async () => {
                  if (
                    await action.run(() =>
                      client.call('sources.watch', { sourceId: source.id, watch: !sync?.watched }),
                    )
                  )
                    onChanged();
                }}
              >
                {sync?.watched ? 'Stop watching' : 'Watch folder'}
              </button>
            )}
            <button className="ghost danger" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          </div>
        </td>
      </tr>
      {(confirming || check || action.error) && (
        <tr>
          <td colSpan={3}>
            <ErrorNote error={action.error} onDismiss={action.clearError} />
            {confirming && (
              <DeleteConfirm
                target={{ sourceId: source.id }}
                onCancel={() => setConfirming(false)}
                onDone={() => {
                  setConfirming(false);
                  onChanged();
                }}
              />
            )}
            {check && <UpdateCheckView check={check} onApplied={onChanged} />}
          </td>
        </tr>
      )}
    </>
  );
}

export function SourcesPanel({ onChanged }: { onChanged: () => void }) {
  const sources = useApi('library.sources', {});
  const sync = useApi('sources.sync', {});
  const { reload: reloadSources } = sources;
  const { reload: reloadSync } = sync;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') {
      reloadSources();
      reloadSync();
    }
  });
  const changed = () => {
    reloadSources();
    reloadSync();
    onChanged();
  };
  return (
    <section className="panel" aria-label="Sources">
      <h2>Sources</h2>
      <ErrorNote error={sources.error ?? sync.error} />
      {(sources.data ?? []).length === 0 ? (
        <p className="muted">No sources yet: import a folder above, or add a Git repository.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Source</th>
              <th className="num">Skills</th>
              <th>Keep in sync</th>
            </tr>
          </thead>
          <tbody>
            {(sources.data ?? []).map((s) => (
              <SourceRow
                key={s.id}
                source={s}
                sync={sync.data?.find((x) => x.sourceId === s.id)}
                onChanged={changed}
              />
            ))}
          </tbody>
        </table>
      )}
      <AddGitForm onImported={changed} />
    </section>
  );
}
