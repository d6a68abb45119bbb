// Profiles: the named sets of skills, one opened for editing, installing into an agent folder and a budget preview.
import { useState } from 'react';
import type { ReviewStatus } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { navigate } from '../app/router';
import { useAction, useApi } from '../app/use-api';
import { BudgetPanel } from './BudgetPanel';
import { InstallPanel } from './InstallPanel';
import { McpPanel } from './McpPanel';
import { ProfileEditor } from './ProfileEditor';
import './profiles.css';

const statuses: ReviewStatus[] = ['unparsed', 'parsed', 'failed', 'edited', 'verified'];

function NewProfileForm({ onCreated }: { onCreated: (name: string) => void }) {
  const client = useClient();
  const action = useAction();
  const [name, setName] = useState('');
  const [nameContains, setNameContains] = useState('');
  const [status, setStatus] = useState<ReviewStatus | ''>('');
  const [evalRun, setEvalRun] = useState('');
  const [variant, setVariant] = useState('');
  const evalRuns = useApi('eval.list', {});
  const create = async () => {
    if (evalRun) {
      const fromEval = { runId: Number(evalRun), variant: variant.trim() || undefined };
      const made = await action.run(() => client.call('profiles.create', { name, fromEval }));
      if (made) {
        setName('');
        onCreated(made.profile.name);
      }
      return;
    }
    const filter = {
      ...(nameContains.trim() ? { nameContains: nameContains.trim() } : {}),
      ...(status ? { status } : {}),
    };
    const made = await action.run(() =>
      client.call('profiles.create', { name, filter: Object.keys(filter).length ? filter : undefined }),
    );
    if (made) {
      setName('');
      onCreated(made.profile.name);
    }
  };
  return (
    <form
      className="new-profile"
      aria-label="New profile"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <input
        name="profile-name"
        placeholder="New profile name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        aria-label="New profile name"
      />
      <div className="row wrap small">
        <span className="muted">Filter (optional):</span>
        <input
          className="narrow-text"
          name="filter-name"
          placeholder="name contains"
          value={nameContains}
          onChange={(e) => setNameContains(e.target.value)}
          aria-label="Filter: name contains"
        />
        <select
          value={status}
          onChange={(e) => setStatus(e.target.value as ReviewStatus | '')}
          aria-label="Filter: review status"
        >
          <option value="">any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {evalRuns.data && evalRuns.data.length > 0 && (
        <div className="row wrap small">
          <span className="muted">Or the answers of:</span>
          <select value={evalRun} onChange={(e) => setEvalRun(e.target.value)} aria-label="Evaluation run">
            <option value="">no evaluation run</option>
            {evalRuns.data
              .filter((r) => r.status === 'done')
              .map((r) => (
                <option key={r.runId} value={r.runId}>
                  evaluation #{r.runId} ({r.setName})
                </option>
              ))}
          </select>
          {evalRun && (
            <input
              className="narrow-text"
              placeholder="variant (all)"
              value={variant}
              onChange={(e) => setVariant(e.target.value)}
              aria-label="Variant"
            />
          )}
        </div>
      )}
      <button type="submit" disabled={!name.trim() || action.busy}>
        Create profile
      </button>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </form>
  );
}

export function ProfilesScreen({ name }: { name?: string }) {
  const list = useApi('profiles.list', {});
  const [version, setVersion] = useState(0);
  const open = (n: string | undefined) =>
    navigate(n === undefined ? { screen: 'profiles' } : { screen: 'profiles', name: n });
  const changed = () => {
    list.reload();
    setVersion((v) => v + 1);
  };
  return (
    <div className="profiles">
      <aside className="panel profile-list" aria-label="Profiles">
        <h2>Profiles</h2>
        <ErrorNote error={list.error} />
        {list.data?.length === 0 && (
          <p className="muted small">
            No profile yet. Make one here, or from a Selection lab answer (&ldquo;Make profile from this
            selection&rdquo;).
          </p>
        )}
        <ul className="plain">
          {list.data?.map((p) => (
            <li key={p.id} className={p.name === name ? 'skill-row selected' : 'skill-row'}>
              <button className="row-button" onClick={() => open(p.name)}>
                <span className="row-title">
                  <strong>{p.name}</strong>
                  <span className="badge">{p.skillCount} skills</span>
                  {p.origin.kind !== 'manual' && <span className="badge">{p.origin.kind}</span>}
                </span>
                {p.description && <span className="row-sub small">{p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
        <NewProfileForm
          onCreated={(n) => {
            list.reload();
            open(n);
          }}
        />
      </aside>
      <div className="profile-main">
        {name === undefined ? (
          <div className="panel empty-state">
            Choose a profile to see its skills, install it or preview its budget.
          </div>
        ) : (
          <>
            <ProfileEditor
              key={`${name}-${version}`}
              name={name}
              onChanged={changed}
              onRenamed={(n) => {
                list.reload();
                open(n);
              }}
              onDeleted={() => {
                list.reload();
                open(undefined);
              }}
            />
            <div className="two-columns">
              <InstallPanel key={`i-${name}`} profile={name} />
              <BudgetPanel key={`b-${name}-${version}`} profile={name} />
            </div>
            <McpPanel profile={name} />
          </>
        )}
      </div>
    </div>
  );
}
