// Evaluation: import a label set, run variants on it as a job (cancellable), re-run and compare with the last run,
// then read the run's report.
import { useEffect, useState } from 'react';
import { variants, type SelectionPreset, type Variant } from '../../../shared/api';
import { needsEmbedderMessage } from '../../../shared/presets';
import type { JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { SampleFileHint } from '../app/SampleFileHint';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from '../library/bits';
import { PresetNote, PresetSelect } from '../select/PresetPicker';
import { usePresetOutcome } from '../select/preset-outcome';
import { EvalReportView } from './EvalReportView';
import { GoldCoverageNote } from './GoldCoverageNote';
import { UnparsedNote } from './UnparsedNote';
import './evaluation.css';
import { labelImportWords } from '../../../shared/label-import-words';

export function EvaluationScreen() {
  const client = useClient();
  const sets = useApi('labels.list', {});
  const runs = useApi('eval.list', {});
  const [setId, setSetId] = useState<number | null>(null);
  const [chosen, setChosen] = useState<Variant[]>(['full', 'no-parse', 'no-graph', 'no-split', 'dense']);
  // The CLI's default too (run-eval: the paper reports the mean of k = 1 and 2).
  const [ks, setKs] = useState('1, 2');
  // '' runs with the Settings' preset.
  const [preset, setPreset] = useState<SelectionPreset | ''>('');
  const settings = useApi('settings.get', {});
  const outcomeOf = usePresetOutcome();
  // The preset the run will ask for, and what scores with it here (the Selection lab says it the same way).
  const shownPreset = preset || settings.data?.selection.preset;
  const outcome = shownPreset && outcomeOf(shownPreset);
  const unavailable = outcome === 'cannot-run' && shownPreset ? needsEmbedderMessage(shownPreset) : undefined;
  const [labelPath, setLabelPath] = useState('');
  // The skill a skill-creator trigger set is for, where the file names none and is not at <skill>/evals/.
  const [labelSkill, setLabelSkill] = useState('');
  const [runId, setRunId] = useState<number | null>(null);
  const [started, setStarted] = useState<JobInfo | null>(null);
  // Set when the running job is a re-run to compare with the last run.
  const [comparing, setComparing] = useState(false);
  const [compareWith, setCompareWith] = useState<number | null | undefined>(undefined);
  const job = useJob(started);
  const action = useAction();
  const report = useApi('eval.show', runId !== null ? { runId } : null);

  useEffect(() => {
    // On entry, the set of the newest run (the run shown), so the set, its notes and Re-run agree with the report.
    if (setId !== null || !sets.data?.[0] || !runs.data) return;
    const newest = runs.data.reduce<(typeof runs.data)[number] | undefined>(
      (a, r) => (a === undefined || r.runId > a.runId ? r : a),
      undefined,
    );
    const ofNewest = sets.data.find((s) => s.id === newest?.setId);
    setSetId((ofNewest ?? sets.data[0]).id);
  }, [sets.data, runs.data, setId]);
  useEffect(() => {
    // Coming back to the screen shows the newest run rather than none.
    if (runId !== null || !runs.data?.length) return;
    setRunId(Math.max(...runs.data.map((r) => r.runId)));
  }, [runs.data, runId]);
  useEffect(() => {
    if (job?.status !== 'done') return;
    const result = job.result as { runId?: number; baseRunId?: number | null } | undefined;
    runs.reload();
    if (result?.runId !== undefined) setRunId(result.runId);
    setCompareWith(comparing && result?.baseRunId ? result.baseRunId : undefined);
    // runs.reload is stable; the effect follows the job only.
  }, [job?.status, job?.result, runs.reload, comparing]);
  useEffect(() => {
    // A cancelled or failed run ends with no report to show; the runs list still changed.
    if (job?.status === 'cancelled' || job?.status === 'failed') runs.reload();
  }, [job?.status, runs.reload]);

  const [imported, setImported] = useState<string | null>(null);
  const importSet = async () => {
    setImported(null);
    const skill = labelSkill.trim();
    const answer = await action.run(() =>
      client.call('labels.import', { path: labelPath.trim(), ...(skill ? { skill } : {}) }),
    );
    if (answer) {
      setImported(labelImportWords(answer));
      sets.reload();
      setSetId(answer.id);
    }
  };
  const run = async () => {
    if (setId === null) return;
    const k = ks
      .split(/[\s,]+/)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
    const begun = await action.run(() =>
      client.call('eval.run', {
        setId,
        variants: chosen,
        k: k.length ? k : undefined,
        ...(preset ? { preset } : {}),
      }),
    );
    if (begun) {
      setComparing(false);
      setStarted(begun);
    }
  };
  const rerun = async () => {
    if (setId === null) return;
    const begun = await action.run(() => client.call('eval.rerun', { setId }));
    if (begun) {
      setComparing(true);
      setStarted(begun);
    }
  };
  const cancel = async () => {
    if (!job) return;
    await action.run(() => client.call('jobs.cancel', { id: job.id }));
  };
  const running = job?.status === 'running' || job?.status === 'queued';
  const setHasRun = (runs.data ?? []).some((r) => r.setId === setId && r.status === 'done');

  return (
    <div className="evaluation">
      <section className="panel" aria-label="Label sets">
        <h2>Label sets</h2>
        <ErrorNote error={sets.error} />
        {sets.data?.length === 0 && (
          <p className="muted">
            No label set yet. Import a JSONL file of tasks with gold skills, or a skill’s evals/evals.json or
            trigger queries from skill-creator.
            <SampleFileHint file="sampleTasks" label="sample tasks" onUse={setLabelPath} />
          </p>
        )}
        <form
          className="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            void importSet();
          }}
        >
          <input
            className="grow"
            name="label-path"
            placeholder="/path/to/tasks.jsonl or my-skill/evals/evals.json"
            value={labelPath}
            onChange={(e) => setLabelPath(e.target.value)}
            aria-label="Label set path"
          />
          <input
            name="label-skill"
            placeholder="skill (trigger sets)"
            title="The skill a skill-creator trigger query set is for, where the file has no skill_name and is not in the skill’s evals/ folder"
            value={labelSkill}
            onChange={(e) => setLabelSkill(e.target.value)}
            aria-label="Skill of a trigger set"
          />
          <button type="submit" disabled={!labelPath.trim() || action.busy}>
            Import label set
          </button>
        </form>
        {imported && (
          <p className="muted small" data-testid="label-imported">
            {imported}
          </p>
        )}
        {sets.data && sets.data.length > 0 && (
          <div className="row wrap">
            <label>
              Set{' '}
              <select
                value={setId ?? ''}
                onChange={(e) => setSetId(Number(e.target.value))}
                aria-label="Label set"
              >
                {sets.data.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.itemCount} tasks)
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        {setId !== null && <GoldCoverageNote setId={setId} />}
        {setId !== null && <UnparsedNote />}
        <fieldset className="variant-picker">
          <legend>Variants</legend>
          {variants.map((v) => (
            <label key={v} className="check">
              <input
                type="checkbox"
                name={`variant-${v}`}
                checked={chosen.includes(v)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, v] : chosen.filter((c) => c !== v))}
              />
              {v}
            </label>
          ))}
          <label>
            k for ranked variants{' '}
            <input
              className="narrow"
              value={ks}
              onChange={(e) => setKs(e.target.value)}
              aria-label="k values"
            />
          </label>
          <PresetSelect
            name="eval-preset"
            preset={preset}
            settingsPreset={settings.data?.selection.preset}
            onPreset={setPreset}
          />
          {shownPreset && <PresetNote preset={shownPreset} outcome={outcome} />}
        </fieldset>
        <div className="eval-actions">
          <button
            className="primary"
            onClick={() => void run()}
            disabled={setId === null || chosen.length === 0 || action.busy || running || !!unavailable}
            title={unavailable}
          >
            Run evaluation
          </button>
          <button
            onClick={() => void rerun()}
            disabled={setId === null || !setHasRun || action.busy || running}
            title="Runs the last evaluation of this set again on the library as it is now, then shows what changed"
          >
            Re-run and compare with the last run
          </button>
          {running && (
            <button onClick={() => void cancel()} disabled={action.busy}>
              Cancel evaluation
            </button>
          )}
          {job?.status === 'cancelled' && (
            <span className="muted small" data-testid="eval-cancelled">
              Cancelled; finished tasks are kept (resume it from Jobs).
            </span>
          )}
        </div>
        <ErrorNote error={action.error} onDismiss={action.clearError} />
        {job && (
          <div data-status={job.status} className="eval-job">
            <ProgressBar progress={job.progress} label="Evaluation progress" />
            {job.error && <ErrorNote error={{ code: job.error.code as never, message: job.error.message }} />}
          </div>
        )}
      </section>
      <section className="panel" aria-label="Past runs">
        <h2>Runs</h2>
        <ErrorNote error={runs.error} />
        {runs.data?.length === 0 && <p className="muted">No evaluation has run yet.</p>}
        <div className="task-picker">
          {(runs.data ?? []).map((r) => (
            <button
              key={r.runId}
              className={r.runId === runId ? 'chip active' : 'chip'}
              onClick={() => {
                setRunId(r.runId);
                setCompareWith(undefined);
              }}
            >
              #{r.runId} {r.setName} · {r.status} · {new Date(r.createdAt).toLocaleString()}
            </button>
          ))}
        </div>
      </section>
      <ErrorNote error={report.error} />
      {report.data && (
        <EvalReportView
          report={report.data}
          compareWith={compareWith}
          earlierRuns={(runs.data ?? []).filter(
            (r) => r.setId === report.data!.setId && r.runId < report.data!.runId && r.status === 'done',
          )}
        />
      )}
    </div>
  );
}
