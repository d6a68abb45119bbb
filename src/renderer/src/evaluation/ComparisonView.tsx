// A run compared with an earlier run of the same set: what changed in the setup, metric deltas per variant, the tasks
// whose answers changed and the skills edited in between (each a link to the skill); on trigger queries each skill's
// trigger precision and recall before → after, with the queries that flipped.
import type { EvalComparison, MetricDelta } from '../../../shared/api';
import { changeCounts } from '../../../shared/skill-change-words';
import { routeHref } from '../app/router';
import { variantLabel } from './charts';
import { TriggerChangesView } from './TriggerChangesView';

const shown = ['precision', 'recall', 'f1', 'exactMatch', 'stageCoverage', 'meanAnswerSize'] as const;
const titles: Record<(typeof shown)[number], string> = {
  precision: 'Precision',
  recall: 'Recall',
  f1: 'F1',
  exactMatch: 'Exact',
  stageCoverage: 'Stage cov.',
  meanAnswerSize: 'Mean size',
};

function Delta({ m, metric }: { m: MetricDelta; metric: (typeof shown)[number] }) {
  const d = m.delta[metric];
  const now = m.current[metric];
  if (d === undefined || now === undefined) return <td className="num muted">—</td>;
  // A larger answer is not better in itself: size changes get no colour.
  const tone = metric === 'meanAnswerSize' || Math.abs(d) < 1e-9 ? '' : d > 0 ? 'delta-up' : 'delta-down';
  const unchanged = Math.abs(d) < 5e-4;
  return (
    <td className={`num ${tone}`} title={`was ${m.base[metric]!.toFixed(3)}`}>
      {now.toFixed(3)}{' '}
      <span className={unchanged ? 'small muted' : 'small'}>
        {unchanged ? '(=)' : `(${d > 0 ? '+' : ''}${d.toFixed(3)})`}
      </span>
    </td>
  );
}

const names = (xs: string[]) => (xs.length ? xs.join(', ') : '(none)');

export function ComparisonView({ comparison: c }: { comparison: EvalComparison }) {
  return (
    <section className="panel comparison-panel" aria-label="Compared with an earlier run">
      <h2>
        Run {c.runId} compared with run {c.baseRunId}
      </h2>
      <p className="small" data-testid="setup-changes">
        {c.setupChanges.length === 0
          ? 'Same library, engines and settings as the earlier run.'
          : `Changed since run ${c.baseRunId}: ${c.setupChanges.join(', ')}.`}{' '}
        {c.current.library && (
          <span className="muted">
            {c.current.library.skillCount} skills · preset {c.current.library.engines.preset ?? '—'} · recall{' '}
            {c.current.library.engines.recall} · scorer {c.current.library.engines.scorer ?? '—'}
          </span>
        )}
      </p>
      <div className="table-scroll">
        <table className="table" data-testid="metric-deltas">
          <thead>
            <tr>
              <th>Variant</th>
              {shown.map((m) => (
                <th key={m}>{titles[m]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {c.metrics.map((m) => (
              <tr key={variantLabel(m)}>
                <th>{variantLabel(m)}</th>
                {m.only ? (
                  <td colSpan={shown.length} className="muted">
                    only in the {m.only === 'base' ? 'earlier' : 'new'} run
                  </td>
                ) : (
                  shown.map((metric) => <Delta key={metric} m={m} metric={metric} />)
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {c.triggers && <TriggerChangesView triggers={c.triggers} />}
      <div className="compare-columns">
        <div aria-label="Changed tasks" data-testid="changed-tasks">
          <h3>Tasks whose answers changed ({c.changedTasks.length})</h3>
          {c.changedTasks.length === 0 && <p className="muted small">No answer changed.</p>}
          <ul className="plain-list">
            {c.changedTasks.map((t) => (
              <li key={t.itemId} data-item={t.itemId}>
                <strong>{t.itemId}</strong> <span className="muted small">{t.task}</span>
                {t.changes.map((ch) => (
                  <div key={variantLabel(ch)} className="small change-line">
                    <span className="badge">{variantLabel(ch)}</span> {names(ch.before)} →{' '}
                    <strong>{names(ch.after)}</strong>{' '}
                    <span
                      className={
                        ch.f1After > ch.f1Before
                          ? 'delta-up'
                          : ch.f1After < ch.f1Before
                            ? 'delta-down'
                            : 'muted'
                      }
                    >
                      F1 {ch.f1Before.toFixed(2)} → {ch.f1After.toFixed(2)}
                    </span>
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </div>
        <div aria-label="Edited skills" data-testid="edited-skills">
          <h3>
            Skills changed between the runs ({c.editedSkills.length}
            {changeCounts(c.editedSkills)})
          </h3>
          {c.editedSkills.length === 0 && <p className="muted small">No skill or state changed.</p>}
          <ul className="plain-list">
            {c.editedSkills.map((s) => (
              <li key={s.name} data-skill={s.name}>
                <a href={routeHref({ screen: 'skill', id: s.skillId })}>{s.name}</a>{' '}
                {s.changes.map((k) => (
                  <span key={k} className="badge">
                    {k}
                  </span>
                ))}
                {s.inChangedTasks.length > 0 && (
                  <span className="small muted"> · in changed tasks {s.inChangedTasks.join(', ')}</span>
                )}
                {s.history.slice(-1).map((h) => (
                  <div key={h.at} className="small muted">
                    {h.action} {new Date(h.at).toLocaleString()}: {h.after.precondition ?? 'None'} →{' '}
                    {h.after.completion ?? '—'}
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
