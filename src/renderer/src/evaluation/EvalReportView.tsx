// One evaluation run: the comparison table, charts per metric, answer-size distributions, per-task drill-down, export.
import { useState } from 'react';
import type { EvalReport, EvalTaskRow } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { MetricBars, SizeHistogram, variantLabel } from './charts';

const pct = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));

function TaskDrillDown({ tasks, differing }: { tasks: EvalTaskRow[]; differing: Set<string> }) {
  const ids = [...new Set(tasks.map((t) => t.itemId))];
  const [selected, setSelected] = useState<string | null>(null);
  const rows = tasks.filter((t) => t.itemId === selected);
  return (
    <section className="panel" aria-label="Per task">
      <h3>Per task</h3>
      <div className="task-picker">
        {ids.map((id) => {
          const results = tasks.filter((t) => t.itemId === id);
          const disagree = differing.has(id);
          return (
            <button
              key={id}
              className={id === selected ? 'chip active' : 'chip'}
              onClick={() => setSelected(id)}
              title={results[0]?.task}
            >
              {id}
              {disagree ? ' ≠' : ''}
            </button>
          );
        })}
      </div>
      <p className="muted small">≠ marks tasks where the variants' F1 differ.</p>
      {rows[0] && (
        <div data-testid="task-detail">
          <p>
            <strong>{rows[0].task}</strong>
          </p>
          <p className="small">
            Gold:{' '}
            {rows[0].gold.map((g) => (
              <span key={g} className="chip static">
                {g}
              </span>
            ))}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th>Variant</th>
                <th>Answer</th>
                <th>P</th>
                <th>R</th>
                <th>F1</th>
                <th>Recall@K</th>
                <th>ms</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={variantLabel(r)}>
                  <td>
                    {r.selectionRunId !== null ? (
                      <a
                        href={`#/select/${r.selectionRunId}`}
                        title="Open this selection and its trace in the lab"
                      >
                        {variantLabel(r)}
                      </a>
                    ) : (
                      variantLabel(r)
                    )}
                  </td>
                  <td>
                    {r.answer.map((a) => (
                      <span key={a} className={r.gold.includes(a) ? 'chip static hit' : 'chip static miss'}>
                        {a}
                      </span>
                    ))}
                  </td>
                  <td className="num">{pct(r.precision)}</td>
                  <td className="num">{pct(r.recall)}</td>
                  <td className="num">{pct(r.f1)}</td>
                  <td className="num">{pct(r.recallAtK)}</td>
                  <td className="num">
                    {Math.round(r.ms)}
                    {r.error && <div className="error-text small">{r.error}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function EvalReportView({ report }: { report: EvalReport }) {
  const client = useClient();
  const action = useAction();
  const [exported, setExported] = useState<string | null>(null);
  const summary = report.summary;
  return (
    <div className="eval-report">
      <section className="panel" aria-label="Comparison">
        <div className="row wrap">
          <h2>
            Run {report.runId}: {report.setName}
          </h2>
          <span className="badge">{report.status}</span>
          <span className="muted small">
            recall {report.engines.recall} · cross-encoder {report.engines.crossEncoder ?? '—'}
            {report.engines.llm ? ` · LLM ${report.engines.llm}` : ''} · recall@{report.recallK} ={' '}
            {report.recallAtK.toFixed(3)} (misses here are recall misses, not selection misses)
          </span>
          <span className="spacer" />
          {(['markdown', 'json'] as const).map((format) => (
            <button
              key={format}
              onClick={async () =>
                setExported(
                  (await action.run(() => client.call('eval.export', { runId: report.runId, format })))
                    ?.content ?? null,
                )
              }
            >
              Export {format}
            </button>
          ))}
        </div>
        <ErrorNote error={action.error} />
        <div className="table-scroll">
          <table className="table comparison" data-testid="comparison-table">
            <thead>
              <tr>
                <th>Variant</th>
                <th>Precision</th>
                <th>Recall</th>
                <th>F1</th>
                <th>Exact</th>
                <th>Hit@1</th>
                <th>Stage cov.</th>
                <th>Mean size</th>
                <th title="Mean cross-encoder pairs per task">CE pairs/task</th>
                <th>LLM calls/task</th>
                <th title="Mean document tokens per task">Tokens/task</th>
                <th>ms/task</th>
                <th>Errors</th>
              </tr>
            </thead>
            <tbody>
              {summary.map((m) => (
                <tr key={variantLabel(m)} data-variant={m.variant}>
                  <th>{variantLabel(m)}</th>
                  <td className="num">{pct(m.precision)}</td>
                  <td className="num">{pct(m.recall)}</td>
                  <td className="num">{pct(m.f1)}</td>
                  <td className="num">{pct(m.exactMatch)}</td>
                  <td className="num">{pct(m.hitAt1)}</td>
                  <td className="num">{pct(m.stageCoverage)}</td>
                  <td className="num">{m.meanAnswerSize.toFixed(2)}</td>
                  <td className="num">{m.crossEncoderPairs.toFixed(1)}</td>
                  <td className="num">{m.llmCalls.toFixed(1)}</td>
                  <td className="num">{Math.round(m.tokens).toLocaleString()}</td>
                  <td className="num">{Math.round(m.msPerTask)}</td>
                  <td className="num">{m.errors}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {exported && (
          <details open>
            <summary>Export</summary>
            <pre className="raw">{exported}</pre>
          </details>
        )}
      </section>
      <section className="panel charts" aria-label="Charts">
        <MetricBars title="F1" rows={summary} metric={(m) => m.f1} />
        <MetricBars title="Precision" rows={summary} metric={(m) => m.precision} />
        <MetricBars title="Recall" rows={summary} metric={(m) => m.recall} />
        <MetricBars title="Exact match" rows={summary} metric={(m) => m.exactMatch} />
        <MetricBars title="Stage coverage" rows={summary} metric={(m) => m.stageCoverage} />
      </section>
      <section className="panel" aria-label="Answer sizes">
        <h3>Answer size distribution</h3>
        <div className="charts">
          {summary.map((m) => (
            <SizeHistogram key={variantLabel(m)} metrics={m} />
          ))}
        </div>
      </section>
      <TaskDrillDown tasks={report.tasks} differing={new Set(report.differences.map((d) => d.itemId))} />
    </div>
  );
}
