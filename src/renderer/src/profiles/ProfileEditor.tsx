// One profile: its name, description, origin and filter, and its skills, added and removed by hand.
import { useState } from 'react';
import type { ProfileDetail } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { routeHref } from '../app/router';
import { useAction, useApi } from '../app/use-api';

function originText(p: ProfileDetail): string {
  switch (p.origin.kind) {
    case 'selection-run':
      return `from selection run #${p.origin.id}`;
    case 'eval-run':
      return `from evaluation run #${p.origin.id}${p.origin.note ? ` (${p.origin.note})` : ''}`;
    case 'filter':
      return 'by filter';
    default:
      return 'by hand';
  }
}

export function ProfileEditor(props: {
  name: string;
  onChanged: () => void;
  onRenamed: (name: string) => void;
  onDeleted: () => void;
}) {
  const client = useClient();
  const profile = useApi('profiles.get', { name: props.name });
  const action = useAction();
  const [adding, setAdding] = useState('');
  const [description, setDescription] = useState<string | null>(null);
  const [rename, setRename] = useState<string | null>(null);
  const p = profile.data;

  const apply = async (call: () => Promise<unknown>) => {
    if ((await action.run(call)) !== undefined) {
      profile.reload();
      props.onChanged();
    }
  };
  const add = async () => {
    const skill = await action.run(() => client.call('library.get', { name: adding.trim() }));
    if (!skill) return;
    setAdding('');
    await apply(() => client.call('profiles.add', { name: props.name, skillIds: [skill.id] }));
  };

  if (!p) return <ErrorNote error={profile.error} />;
  return (
    <section className="panel" aria-label="Profile">
      <div className="row wrap">
        {rename === null ? (
          <h2 data-testid="profile-name">{p.name}</h2>
        ) : (
          <input value={rename} onChange={(e) => setRename(e.target.value)} aria-label="New name" />
        )}
        <span className="badge">{p.skills.length} skills</span>
        <span className="muted small">{originText(p)}</span>
        {p.origin.kind === 'selection-run' && p.origin.id !== null && (
          <a className="small" href={routeHref({ screen: 'select', runId: p.origin.id })}>
            open the run
          </a>
        )}
        <span className="spacer" />
        {rename === null ? (
          <button className="ghost" onClick={() => setRename(p.name)}>
            Rename
          </button>
        ) : (
          <button
            disabled={!rename.trim() || action.busy}
            onClick={async () => {
              const done = await action.run(() => client.call('profiles.update', { name: p.name, rename }));
              if (done) props.onRenamed(done.name);
            }}
          >
            Save name
          </button>
        )}
        <button
          className="ghost danger"
          disabled={action.busy}
          onClick={async () => {
            if (!window.confirm(`Delete profile "${p.name}"? Installed copies stay until uninstalled.`))
              return;
            if (await action.run(() => client.call('profiles.delete', { name: p.name }))) props.onDeleted();
          }}
        >
          Delete
        </button>
      </div>
      <div className="row wrap">
        <input
          className="grow"
          placeholder="What this profile is for"
          value={description ?? p.description}
          onChange={(e) => setDescription(e.target.value)}
          aria-label="Description"
        />
        {description !== null && description !== p.description && (
          <button
            disabled={action.busy}
            onClick={() => apply(() => client.call('profiles.update', { name: p.name, description }))}
          >
            Save description
          </button>
        )}
      </div>
      {p.filter && (
        <p className="small">
          <span className="muted">Filter:</span> <code>{JSON.stringify(p.filter)}</code>{' '}
          <span className="muted">— matching skills join as the library changes.</span>{' '}
          <button
            className="ghost small"
            onClick={() => apply(() => client.call('profiles.update', { name: p.name, filter: null }))}
          >
            Keep today&apos;s skills, drop the filter
          </button>
        </p>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      <div className="table-scroll">
        <table className="table" aria-label="Profile skills">
          <thead>
            <tr>
              <th>Skill</th>
              <th>Description</th>
              <th>Via</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {p.skills.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={routeHref({ screen: 'skill', id: s.id })}>{s.name}</a>
                </td>
                <td className="muted small clamp">{s.description}</td>
                <td className="small">{s.via}</td>
                <td>
                  <button
                    className="ghost small"
                    aria-label={`Remove ${s.name}`}
                    disabled={action.busy}
                    onClick={() =>
                      apply(() => client.call('profiles.remove', { name: p.name, skillIds: [s.id] }))
                    }
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {p.excluded.length > 0 && (
        <p className="muted small">
          Kept out of the filter&apos;s matches: {p.excluded.map((s) => s.name).join(', ')}
        </p>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <input
          className="grow"
          placeholder="Skill name to add"
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          aria-label="Skill to add"
        />
        <button type="submit" disabled={!adding.trim() || action.busy}>
          Add skill
        </button>
      </form>
    </section>
  );
}
