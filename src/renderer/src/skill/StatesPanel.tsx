// The parsed precondition and completion of one skill: read, edit in place, verify, re-parse, history with revert.
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { SkillStates, StateHistoryEntry } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { StatusBadge } from '../library/bits';
import type { JobInfo } from '../../../shared/jobs';
import { JobInline } from '../library/JobInline';
import { useVerifyGate } from '../audit/verify-gate';
import { FailedAttemptNote, ReparseConfirm, needsReplaceChoice } from './reparse';

export interface StatesPanelHandle {
  edit(): void;
  verify(): Promise<boolean>;
}

function HistoryList({
  entries,
  onRevert,
  busy,
}: {
  entries: StateHistoryEntry[];
  onRevert: (id: number) => void;
  busy: boolean;
}) {
  if (entries.length === 0) return <p className="muted small">No changes yet.</p>;
  return (
    <ol className="history" aria-label="State history">
      {entries.map((h) => (
        <li key={h.id}>
          <div className="row">
            <strong>{h.action}</strong>
            <span className="muted small">{new Date(h.at).toLocaleString()}</span>
            {h.before && (
              <button
                className="ghost small"
                onClick={() => onRevert(h.id)}
                disabled={busy}
                title="Restore the values before this change"
              >
                Revert
              </button>
            )}
          </div>
          {h.after && (
            <div className="small">
              <div>
                <span className="muted">pre:</span> {h.after.precondition ?? 'None'}
              </div>
              <div>
                <span className="muted">post:</span> {h.after.completion ?? '—'}
              </div>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

export const StatesPanel = forwardRef<StatesPanelHandle, { skillId: number }>(function StatesPanel(
  { skillId },
  ref,
) {
  const client = useClient();
  const loaded = useApi('states.get', { skillId });
  const history = useApi('states.history', { skillId });
  const [states, setStates] = useState<SkillStates | null>(null);
  const [editing, setEditing] = useState(false);
  const [pre, setPre] = useState('');
  const [post, setPost] = useState('');
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const preBox = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (loaded.data) setStates(loaded.data);
  }, [loaded.data]);
  useCuratorEvent((event) => {
    if (event.type === 'states.changed' && event.skillIds.includes(skillId)) {
      loaded.reload();
      history.reload();
    }
  });

  const startEdit = () => {
    setPre(states?.precondition ?? '');
    setPost(states?.completion ?? '');
    setEditing(true);
    requestAnimationFrame(() => preBox.current?.focus());
  };
  const apply = (next: SkillStates | undefined) => {
    if (!next) return false;
    setStates(next);
    history.reload();
    return true;
  };
  const save = async () => {
    const next = await action.run(() =>
      client.call('states.edit', {
        skillId,
        precondition: pre.trim() === '' || /^none$/i.test(pre.trim()) ? null : pre.trim(),
        completion: post.trim(),
      }),
    );
    if (apply(next)) setEditing(false);
  };
  const gate = useVerifyGate();
  const verify = async () =>
    apply(
      await action.run(() =>
        gate.run((acknowledge) =>
          client.call('states.verify', { skillId, ...(acknowledge ? { acknowledgeAudit: true } : {}) }),
        ),
      ),
    );
  // Edited or verified states are replaced only when the curator says so; by default they are kept.
  const [reparseJob, setReparseJob] = useState<JobInfo | null>(null);
  useEffect(() => setReparseJob(null), [skillId]);
  const startReparse = async (replace: boolean) => {
    setConfirming(false);
    const job = await action.run(() =>
      client.call('parse.skills', { ids: [skillId], force: true, ...(replace ? { replace: true } : {}) }),
    );
    if (job) setReparseJob(job);
  };
  const reparse = () => {
    if (needsReplaceChoice(states?.status)) setConfirming(true);
    else void startReparse(false);
  };
  const revert = async (historyId: number) =>
    apply(await action.run(() => client.call('states.revert', { skillId, historyId })));

  useImperativeHandle(ref, () => ({ edit: startEdit, verify }));
  // No completion means no states at all: the precondition is not "None" (needs nothing) but unknown too.
  const noStates =
    states && states.completion === null ? (
      <em className="muted">{states.status === 'failed' ? 'none: the parse failed' : 'not parsed yet'}</em>
    ) : null;

  return (
    <section className="panel states" aria-label="Parsed states">
      <div className="row">
        <h2>States</h2>
        {states && <StatusBadge status={states.status} />}
        {states?.outdated && <span className="badge warn">skill changed since parse</span>}
      </div>
      <ErrorNote error={loaded.error} />
      {states?.error && !states.failedAttempt && (
        <div className="error-note">
          <strong>The last parse failed:</strong> {states.error}. Edit the states by hand or re-parse.
        </div>
      )}
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
          }}
        >
          <label>
            Precondition <span className="muted small">(empty = None: the skill needs nothing)</span>
            <textarea
              ref={preBox}
              name="precondition"
              rows={3}
              value={pre}
              onChange={(e) => setPre(e.target.value)}
            />
          </label>
          <label>
            Completion
            <textarea name="completion" rows={3} value={post} onChange={(e) => setPost(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="primary" disabled={action.busy || post.trim() === ''}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <span className="muted small">Ctrl+Enter saves, Esc cancels</span>
          </div>
        </form>
      ) : (
        <dl className="states-view">
          <dt>Precondition</dt>
          <dd data-testid="precondition">
            {states ? (noStates ?? states.precondition ?? <em>None</em>) : '…'}
          </dd>
          <dt>Completion</dt>
          <dd data-testid="completion">{states ? (noStates ?? states.completion) : '…'}</dd>
        </dl>
      )}
      {states?.failedAttempt && (
        <FailedAttemptNote attempt={states.failedAttempt} hasStates={states.completion !== null} />
      )}
      {states && (
        <p className="muted small">
          {states.model
            ? `Parsed by ${states.model} (prompt ${states.promptVersion ?? '?'})`
            : 'Not parsed by a model.'}
          {states.updatedAt ? ` · ${new Date(states.updatedAt).toLocaleString()}` : ''}
        </p>
      )}
      {!editing && (
        <div className="row wrap">
          <button onClick={startEdit} title="Edit (e)">
            Edit
          </button>
          <button
            className="primary"
            onClick={() => void verify()}
            disabled={action.busy || !states?.completion || states.status === 'verified'}
            title="Accept as verified (a)"
          >
            Verify
          </button>
          <button
            onClick={reparse}
            disabled={action.busy || confirming}
            title="Parse again with the LLM; edited or verified states are kept unless you choose Replace"
          >
            Re-parse
          </button>
        </div>
      )}
      {confirming && states && (
        <ReparseConfirm
          status={states.status}
          busy={action.busy}
          onKeep={() => setConfirming(false)}
          onReplace={() => void startReparse(true)}
        />
      )}
      {gate.dialog}
      {reparseJob && <JobInline job={reparseJob} label="Re-parse progress" />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {states?.rawAnswer && !(states.status === 'failed' && states.failedAttempt) && (
        <details>
          <summary>Raw model answer</summary>
          <pre className="raw">{states.rawAnswer}</pre>
        </details>
      )}
      <h3>History</h3>
      <ErrorNote error={history.error} />
      <HistoryList entries={history.data ?? []} onRevert={(id) => void revert(id)} busy={action.busy} />
    </section>
  );
});
