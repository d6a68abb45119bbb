// Skill pairs the selection confuses on the run's labelled tasks (most tasks first), each with its two skills' states
// side by side: the place to sharpen one of them.
import { useState } from 'react';
import type { ConfusablePair } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { routeHref } from '../app/router';
import { useApi } from '../app/use-api';

const kindTitle: Record<ConfusablePair['kinds'][number], string> = {
  phi: 'a stage’s winner and runner-up within the φ margin',
  rho: 'neighbours of the ρ ranking within the ρ margin, at the answer’s edge',
  swap: 'variants gave the same stage to one or the other',
};

function SkillStatesCard({ name, skillId }: { name: string; skillId: number | null }) {
  const states = useApi('states.get', skillId !== null ? { skillId } : null);
  return (
    <div className="states-card" data-skill={name}>
      <h4>{skillId !== null ? <a href={routeHref({ screen: 'skill', id: skillId })}>{name}</a> : name}</h4>
      <ErrorNote error={states.error} />
      {skillId === null && <p className="muted small">Not in the library any more.</p>}
      {states.data && (
        <dl className="small">
          <dt>Precondition</dt>
          <dd>{states.data.precondition ?? <span className="muted">None</span>}</dd>
          <dt>Completion</dt>
          <dd>{states.data.completion ?? <span className="muted">no states ({states.data.status})</span>}</dd>
          <dt>Status</dt>
          <dd>{states.data.status}</dd>
        </dl>
      )}
    </div>
  );
}

export function ConfusabilityView({ runId }: { runId: number }) {
  const report = useApi('eval.confusability', { runId });
  const [open, setOpen] = useState<string | null>(null);
  const pairs = report.data?.pairs ?? [];
  const key = (p: ConfusablePair) => `${p.a.name}|${p.b.name}`;
  const chosen = pairs.find((p) => key(p) === open);
  return (
    <section className="panel" aria-label="Confusable skills">
      <h3>Confusable skills</h3>
      <ErrorNote error={report.error} />
      {report.data && (
        <p className="muted small">
          Pairs that ended within φ {report.data.phiMargin} or ρ {report.data.rhoMargin} of each other, or
          that variants picked interchangeably, on the labelled tasks. Sharpening one skill’s states usually
          separates them.
        </p>
      )}
      {report.data && pairs.length === 0 && <p className="muted small">No confusable pair in this run.</p>}
      {pairs.length > 0 && (
        <div className="table-scroll">
          <table className="table" data-testid="confusable-pairs">
            <thead>
              <tr>
                <th>Tasks</th>
                <th>Skills</th>
                <th>How</th>
                <th>Smallest margin</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {pairs.slice(0, 30).map((p) => (
                <tr key={key(p)} className={key(p) === open ? 'selected' : undefined}>
                  <td className="num" title={p.tasks.join(', ')}>
                    {p.tasks.length}
                  </td>
                  <td>
                    {p.a.name} <span className="muted">~</span> {p.b.name}
                    {p.goldInvolved && <span className="badge">gold</span>}
                  </td>
                  <td>
                    {p.kinds.map((k) => (
                      <span key={k} className="badge" title={kindTitle[k]}>
                        {k === 'phi' ? 'φ' : k === 'rho' ? 'ρ' : 'swap'}
                      </span>
                    ))}
                  </td>
                  <td className="num">{p.minMargin === null ? '—' : p.minMargin.toFixed(3)}</td>
                  <td>
                    <button className="small" onClick={() => setOpen(key(p) === open ? null : key(p))}>
                      {key(p) === open ? 'Hide states' : 'States side by side'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {chosen && (
        <div className="side-by-side" data-testid="states-side-by-side">
          <SkillStatesCard name={chosen.a.name} skillId={chosen.a.skillId} />
          <SkillStatesCard name={chosen.b.name} skillId={chosen.b.skillId} />
        </div>
      )}
    </section>
  );
}
