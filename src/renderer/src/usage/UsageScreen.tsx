// Usage: what agents searched, selected and read over MCP, per skill, over a period and per served profile; the
// skills of a served profile no agent used; the calls behind each figure; CSV export.
import { useState } from 'react';
import type { UsageQuery, UsageRole, UsageSummary } from '../../../shared/api/usage';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { routeHref } from '../app/router';
import { useAction, useApi } from '../app/use-api';
import { saveAsFile } from '../evaluation/save-export';
import { shortTime, UsageCalls } from './UsageCalls';
import './usage.css';

const periods = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: '', label: 'All kept calls' },
  { value: 'custom', label: 'From … to …' },
] as const;

function PeriodPicker({ onChange }: { onChange: (q: Pick<UsageQuery, 'from' | 'to'>) => void }) {
  const [choice, setChoice] = useState<string>('30d');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const pick = (value: string, f = from, t = to) => {
    setChoice(value);
    if (value !== 'custom') onChange(value ? { from: value } : {});
    else onChange({ ...(f ? { from: f } : {}), ...(t ? { to: t } : {}) });
  };
  return (
    <>
      <label>
        Period{' '}
        <select value={choice} onChange={(e) => pick(e.target.value)}>
          {periods.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {choice === 'custom' && (
        <>
          <label>
            from{' '}
            <input
              type="date"
              value={from}
              onChange={(e) => {
                setFrom(e.target.value);
                pick('custom', e.target.value, to);
              }}
            />
          </label>
          <label>
            to{' '}
            <input
              type="date"
              value={to}
              onChange={(e) => {
                setTo(e.target.value);
                pick('custom', from, e.target.value);
              }}
            />
          </label>
        </>
      )}
    </>
  );
}

function Totals({ s }: { s: UsageSummary }) {
  if (s.calls === 0)
    return (
      <p className="muted">
        No agent called this library{s.profile ? ` under profile "${s.profile}"` : ''} in this period. Serve
        it to agents with <code>skill-curator mcp</code> (Profiles → Serve to agents); their calls appear
        here.
      </p>
    );
  return (
    <p data-testid="usage-totals">
      <strong>{s.calls}</strong> call{s.calls === 1 ? '' : 's'}:{' '}
      {s.byTool.map((t) => `${t.tool} ${t.calls}`).join(', ')}. Clients:{' '}
      {s.clients.map((c) => `${c.client} (${c.calls})`).join(', ')}.
    </p>
  );
}

/** A count that opens the calls behind it. */
function Figure({ n, onOpen, label }: { n: number; onOpen: () => void; label: string }) {
  if (n === 0) return <span className="muted">0</span>;
  return (
    <button className="link" onClick={onOpen} aria-label={label}>
      {n}
    </button>
  );
}

function SkillTable({
  s,
  onOpen,
}: {
  s: UsageSummary;
  onOpen: (skill: { skillId: number; name: string; role?: UsageRole }) => void;
}) {
  if (s.skills.length === 0) return null;
  return (
    <table className="table" data-testid="usage-skills">
      <thead>
        <tr>
          <th>Skill</th>
          <th className="num">Offered</th>
          <th className="num">Selected</th>
          <th className="num">Read</th>
          <th>Last used</th>
        </tr>
      </thead>
      <tbody>
        {s.skills.map((r) => (
          <tr key={r.skillId} data-skill={r.name}>
            <td>
              {r.inLibrary ? (
                <a href={routeHref({ screen: 'skill', id: r.skillId })}>{r.name}</a>
              ) : (
                <>
                  {r.name} <span className="muted small">(no longer in the library)</span>
                </>
              )}
            </td>
            {(['offered', 'selected', 'read'] as const).map((role) => (
              <td key={role} className="num" data-role={role}>
                <Figure
                  n={r[role]}
                  label={`${r[role]} ${role}: show the calls`}
                  onOpen={() => onOpen({ skillId: r.skillId, name: r.name, role })}
                />
              </td>
            ))}
            <td className="nowrap">
              <button className="link" onClick={() => onOpen({ skillId: r.skillId, name: r.name })}>
                {shortTime(r.lastUsedAt)}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NeverUsed({ s }: { s: UsageSummary }) {
  if (s.neverUsed.length === 0)
    return (
      <p className="muted small">
        Never-used skills are shown for profiles served to agents (
        <code>skill-curator mcp --profile NAME</code>); no call in this period was served under one.
      </p>
    );
  return (
    <>
      {s.neverUsed.map((n) => (
        <section key={n.profile} className="panel" aria-label={`Never used in ${n.profile}`}>
          <h2>
            Never selected or read under profile "{n.profile}": {n.skills.length} of {n.of}
          </h2>
          {n.skills.length === 0 ? (
            <p className="muted">Every skill of this profile was selected or read in this period.</p>
          ) : (
            <ul className="usage-never" data-testid="never-used">
              {n.skills.map((k) => (
                <li key={k.skillId}>
                  <a href={routeHref({ screen: 'skill', id: k.skillId })}>{k.name}</a>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </>
  );
}

export function UsageScreen() {
  const client = useClient();
  const [period, setPeriod] = useState<Pick<UsageQuery, 'from' | 'to'>>({ from: '30d' });
  const [profile, setProfile] = useState('');
  const [open, setOpen] = useState<{ skillId: number; name: string; role?: UsageRole } | null>(null);
  const query: UsageQuery = { ...period, ...(profile ? { profile } : {}) };
  const summary = useApi('usage.summary', query);
  const profiles = useApi('profiles.list', {});
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const names = [
    ...new Set([...(profiles.data ?? []).map((p) => p.name), ...(summary.data?.servedProfiles ?? [])]),
  ].sort();

  const exportCsv = async (kind: 'skills' | 'calls') => {
    const desktop = client.mode === 'desktop' ? window.curator?.desktop : undefined;
    const out = await action.run(() => client.call('usage.csv', { ...query, kind }));
    if (!out) return;
    if (desktop?.saveDialog) {
      const target = await desktop.saveDialog({
        defaultName: out.fileName,
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      });
      if (!target) return;
      // The native dialog has asked before replacing a file.
      const written = await action.run(() =>
        client.call('usage.csv', { ...query, kind, path: target, overwrite: true }),
      );
      if (written) setSaved(written.path ?? target);
      return;
    }
    saveAsFile(out.text, out.fileName);
    setSaved(out.fileName);
  };

  const s = summary.data;
  return (
    <div className="usage">
      <section className="panel" aria-label="Agent usage">
        <div className="row wrap">
          <h2>Agent usage</h2>
          <PeriodPicker
            onChange={(p) => {
              setPeriod(p);
              setOpen(null);
            }}
          />
          <label>
            Served under{' '}
            <select
              value={profile}
              onChange={(e) => {
                setProfile(e.target.value);
                setOpen(null);
              }}
              aria-label="Served under profile"
            >
              <option value="">any rule (all calls)</option>
              {names.map((n) => (
                <option key={n} value={n}>
                  profile "{n}"
                </option>
              ))}
            </select>
          </label>
          <button onClick={summary.reload} disabled={summary.loading}>
            Refresh
          </button>
          <button onClick={() => void exportCsv('skills')} disabled={action.busy || !s}>
            Export skills CSV
          </button>
          <button onClick={() => void exportCsv('calls')} disabled={action.busy || !s}>
            Export calls CSV
          </button>
        </div>
        <ErrorNote error={summary.error ?? action.error} onDismiss={action.clearError} />
        {saved && <p className="muted small">Saved {saved}</p>}
        {s && <Totals s={s} />}
        {s && <SkillTable s={s} onOpen={setOpen} />}
        {s && (
          <p className="muted small">
            Offered: a search hit or a skills/get entry; selected: in a select_skills answer; read: a file
            read (read_skill, resources/read).{' '}
            {s.retentionDays === 0 ? <>Recording is off.</> : <>Calls are kept {s.retentionDays} days.</>}{' '}
            <a href={routeHref({ screen: 'settings', section: 'usage' })}>Change how long</a>
          </p>
        )}
      </section>
      {open && <UsageCalls skill={open} query={query} onClose={() => setOpen(null)} />}
      {s && <NeverUsed s={s} />}
    </div>
  );
}
