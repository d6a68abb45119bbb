// One evaluation run: the comparison table, the comparison with an earlier run, charts, the per-task drill-down
// (tasks where variants differ), per-skill trigger figures on trigger queries, confusable skill pairs, and exports saved
// as files.
import { useEffect, useState } from 'react';
import type { EvalExportFormat, EvalReport, EvalTaskRow } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { MetricBars, QualityVsSize, SizeDistribution, variantLabel } from './charts';
import { ComparisonView } from './ComparisonView';
import { ConfusabilityView } from './ConfusabilityView';
import { saveAsFile } from './save-export';
import { TriggerFiguresView } from './TriggerFiguresView';
import { localModelsPlace } from '../../../shared/settings-places';

const pct = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));

function TaskDrillDown({ tasks, differing }: { tasks: EvalTaskRow[]; differing: Set<string> }) {
  const [onlyDiffering, setOnlyDiffering] = useState(differing.size > 0);
  const ids = [...new Set(tasks.map((t) => t.itemId))].filter((id) => !onlyDiffering || differing.has(id));
  const [selected, setSelected] = useState<string | null>(null);
  const rows = tasks.filter((t) => t.itemId === selected);
  return (
    <section className="panel" aria-label="Per task">
      <div className="row wrap">
        <h3>Per task</h3>
        <label className="check drill-toggle">
          <input
            type="checkbox"
            name="only-differing"
            checked={onlyDiffering}
            onChange={(e) => setOnlyDiffering(e.target.checked)}
          />
          Only tasks where variants differ ({differing.size} of {new Set(tasks.map((t) => t.itemId)).size})
        </label>
      </div>
      {ids.length === 0 && (
        <p className="muted small">Every variant gave every task an equally good answer.</p>
      )}
      <div className="task-picker" data-testid="task-chips">
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
      <p className="muted small">≠ marks tasks where the variants’ answers differ in F1.</p>
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

const exportFormats = [
  { format: 'markdown', label: 'Markdown' },
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
] as const;

const exportFilters: Record<EvalExportFormat, { name: string; extensions: string[] }[]> = {
  markdown: [{ name: 'Markdown', extensions: ['md'] }],
  csv: [{ name: 'CSV', extensions: ['csv'] }],
  json: [{ name: 'JSON', extensions: ['json'] }],
};

export function EvalReportView({
  report,
  compareWith,
  earlierRuns = [],
}: {
  report: EvalReport;
  compareWith?: number | null;
  /** Finished runs of the same label set before this one, newest first. */
  earlierRuns?: { runId: number; createdAt: string }[];
}) {
  const client = useClient();
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  // undefined: no comparison asked for; null: with the last finished run before this one.
  const [base, setBase] = useState<number | null | undefined>(compareWith);
  useEffect(() => setBase(compareWith), [compareWith, report.runId]);
  // The shown report can still be the base run for a moment after a re-run ends: a run is never compared with itself.
  const comparison = useApi(
    'eval.compare',
    base === undefined || base === report.runId
      ? null
      : { runId: report.runId, ...(base === null ? {} : { baseRunId: base }) },
  );
  const summary = report.summary;
  const lexicalScorer = report.engines.crossEncoder?.startsWith('lexical:') ?? false;
  const lexicalRecall = report.engines.recall.startsWith('lexical:');
  const save = async (format: EvalExportFormat) => {
    const name = `evaluation-${report.runId}.${format === 'markdown' ? 'md' : format}`;
    const desktop = client.mode === 'desktop' ? window.curator?.desktop : undefined;
    if (desktop?.saveDialog) {
      // The desktop app writes where the user chose in the native dialog; the core does the writing.
      const target = await desktop.saveDialog({ defaultName: name, filters: exportFilters[format] });
      if (!target) return;
      const out = await action.run(() =>
        // The native dialog asked before replacing a file.
        client.call('eval.export', { runId: report.runId, format, path: target, overwrite: true }),
      );
      if (out) setSaved(out.path ?? target);
      return;
    }
    const out = await action.run(() => client.call('eval.export', { runId: report.runId, format }));
    if (!out) return;
    saveAsFile(out.content, out.fileName ?? name);
    setSaved(out.fileName ?? name);
  };
  return (
    <div className="eval-report">
      <section className="panel" aria-label="Comparison">
        <div className="row wrap">
          <h2>
            Run {report.runId}: {report.setName}
          </h2>
          <span className="badge">{report.status}</span>
          <span className="muted small">
            recall {report.engines.recall} ·{' '}
            {/* As the preset chooser says it: a model preset with no model behind it scored offline. */}
            {lexicalScorer
              ? `scoring offline (${report.engines.crossEncoder})`
              : `cross-encoder ${report.engines.crossEncoder ?? '—'}`}
            {report.engines.llm ? ` · LLM ${report.engines.llm}` : ''} · recall@{report.recallK} ={' '}
            {report.recallAtK.toFixed(3)} (misses here are recall misses, not selection misses)
          </span>
        </div>
        <div className="eval-actions">
          <button
            onClick={() => setBase(null)}
            disabled={base === null || earlierRuns.length === 0}
            title={earlierRuns.length === 0 ? 'No earlier finished run of this label set' : undefined}
          >
            Compare with the previous run
          </button>
          {earlierRuns.length > 1 && (
            <select
              aria-label="Compare with run"
              value={typeof base === 'number' ? base : ''}
              onChange={(e) => setBase(e.target.value === '' ? undefined : Number(e.target.value))}
            >
              <option value="">or with run…</option>
              {earlierRuns.map((r) => (
                <option key={r.runId} value={r.runId}>
                  #{r.runId} · {new Date(r.createdAt).toLocaleString()}
                </option>
              ))}
            </select>
          )}
          <span className="spacer" />
          <span className="muted small">Export</span>
          {exportFormats.map(({ format, label }) => (
            <button key={format} className="small" onClick={() => void save(format)} disabled={action.busy}>
              {label}
            </button>
          ))}
          {saved && (
            <span className="small muted" data-testid="export-saved">
              saved {saved}
            </span>
          )}
        </div>
        <ErrorNote error={action.error} onDismiss={action.clearError} />
        <div className="table-scroll">
          <table className="table comparison" data-testid="comparison-table">
            <thead>
              <tr>
                <th>Variant</th>
                <th title="Mean share of a task’s answered skills that are gold">Precision</th>
                <th title="Mean share of a task’s gold skills that were answered">Recall</th>
                <th title="Mean of each task’s harmonic mean of precision and recall">F1</th>
                <th title="Share of tasks whose answer is exactly the gold set">Exact</th>
                <th title="Share of tasks whose first skill answered (the top of a ranking, the winner of a graph answer’s first stage) is one of the task’s gold skills or in one of its gold groups, for any stage">
                  Hit@1
                </th>
                <th title="Stage coverage: share of a task’s gold groups (one per stage) with at least one skill in the answer">
                  Stage cov.
                </th>
                <th title="Mean number of skills per answer">Mean size</th>
                <th
                  title={`Mean pairs scored per task, by ${lexicalScorer ? `the offline scorer ${report.engines.crossEncoder} (no cross-encoder is set up)` : 'the cross-encoder'}`}
                >
                  Pairs/task
                </th>
                <th>LLM calls/task</th>
                <th title="Mean tokens of the skill texts and states scored per task, plus the LLM’s prompt tokens">
                  Tokens/task
                </th>
                <th title="Mean milliseconds per task, with scores shared between the variants of a task (in the order listed)">
                  ms/task
                </th>
                <th title="Tasks this variant could not answer (the error is in the per-task rows)">
                  Errors
                </th>
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
        {lexicalRecall && summary.some((m) => m.variant === 'dense') && (
          <p className="muted small" data-testid="dense-is-keywords">
            The dense rows rank by the recall, here the keyword engine {report.engines.recall}: no embedder
            was set up ({localModelsPlace}).
          </p>
        )}
      </section>
      {report.triggers && <TriggerFiguresView key={`triggers-${report.runId}`} triggers={report.triggers} />}
      {base !== undefined && (
        <>
          {comparison.error && <ErrorNote error={comparison.error} onDismiss={() => setBase(undefined)} />}
          {comparison.data && <ComparisonView comparison={comparison.data} />}
        </>
      )}
      <section className="panel charts" aria-label="Charts">
        <QualityVsSize rows={summary} />
        <SizeDistribution rows={summary} />
        <MetricBars title="F1" rows={summary} metric={(m) => m.f1} />
      </section>
      <TaskDrillDown
        key={report.runId}
        tasks={report.tasks}
        differing={new Set(report.differences.map((d) => d.itemId))}
      />
      <ConfusabilityView runId={report.runId} />
    </div>
  );
}
