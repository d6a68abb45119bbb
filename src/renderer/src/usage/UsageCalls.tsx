// The calls behind a skill's figures: when, which tool and client, the task or query, and for a selection the run
// to open in the lab.
import { useState } from 'react';
import type { UsageQuery, UsageRole } from '../../../shared/api/usage';
import { ErrorNote } from '../app/ErrorNote';
import { routeHref } from '../app/router';
import { useApi } from '../app/use-api';

const PAGE = 25;

const two = (n: number) => String(n).padStart(2, '0');

/** A recorded time in the curator's own time zone, to the minute. */
export function shortTime(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function UsageCalls({
  skill,
  query,
  onClose,
}: {
  skill: { skillId: number; name: string; role?: UsageRole };
  query: UsageQuery;
  onClose: () => void;
}) {
  const [limit, setLimit] = useState(PAGE);
  const calls = useApi('usage.calls', {
    ...query,
    skillId: skill.skillId,
    ...(skill.role ? { role: skill.role } : {}),
    limit,
  });
  return (
    <section className="panel" aria-label={`Calls that used ${skill.name}`}>
      <div className="row wrap">
        <h2>
          Calls that {skill.role ? `${skill.role === 'offered' ? 'offered' : skill.role}` : 'used'}{' '}
          {skill.name}
        </h2>
        <span className="muted small">{calls.data ? `${calls.data.total} in this period` : ''}</span>
        <button onClick={onClose}>Close</button>
      </div>
      <ErrorNote error={calls.error} />
      {calls.data && (
        <table className="table" data-testid="usage-calls">
          <thead>
            <tr>
              <th>When</th>
              <th>Tool</th>
              <th>Client</th>
              <th>Served under</th>
              <th>Task or query</th>
              <th>Skills</th>
            </tr>
          </thead>
          <tbody>
            {calls.data.items.map((c) => (
              <tr key={c.id} data-call={c.id}>
                <td className="nowrap">{shortTime(c.at)}</td>
                <td>
                  {c.tool}
                  {c.runId !== null && (
                    <>
                      {' '}
                      <a href={routeHref({ screen: 'select', runId: c.runId })} data-run={c.runId}>
                        open run #{c.runId} in the lab
                      </a>
                    </>
                  )}
                </td>
                <td>{c.client ?? <span className="muted">unknown</span>}</td>
                <td>{c.profile ? `profile "${c.profile}"` : c.rule}</td>
                <td>{c.query ?? <span className="muted">—</span>}</td>
                <td className="small">
                  {c.skills
                    .map((s) => `${s.role} ${s.name}${s.path && s.path !== 'SKILL.md' ? `/${s.path}` : ''}`)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {calls.data && calls.data.total > calls.data.items.length && (
        <button onClick={() => setLimit((n) => n + PAGE)}>Show {PAGE} more</button>
      )}
    </section>
  );
}
