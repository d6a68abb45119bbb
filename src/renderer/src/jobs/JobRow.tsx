// One job in the Jobs screen: its title in words, how it ended, progress and counters, the actions that can help, and
// a way to its result.
import { useState } from 'react';
import type { ImportReport } from '../../../shared/api';
import { importLinesShown } from '../../../shared/import-hints';
import { canResume, canRetryFailed, jobOutcome, jobTitle, outcomeWords } from '../../../shared/job-words';
import type { JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { counterLabel } from './counter-labels';
import { ProgressBar } from '../library/bits';
import { ImportReportView } from '../library/ImportReportView';

function Counters({ job }: { job: JobInfo }) {
  const counters = job.progress.counters;
  if (!counters || Object.keys(counters).length === 0) return null;
  return (
    <span className="counters small">
      {Object.entries(counters).map(([k, v]) => (
        <span key={k} className="counter">
          {counterLabel(job, k)}: <strong>{/cost/i.test(k) ? v.toFixed(4) : v.toLocaleString()}</strong>
        </span>
      ))}
    </span>
  );
}

function importSourceId(job: JobInfo): number | undefined {
  const id = (job.result as { sourceId?: unknown } | undefined)?.sourceId;
  return typeof id === 'number' ? id : undefined;
}

function ImportReportOf({ sourceId }: { sourceId: number }) {
  const report = useApi('library.importReport', { sourceId, shown: importLinesShown });
  if (report.error) return <ErrorNote error={report.error} />;
  if (!report.data)
    return <p className="muted small">{report.loading ? 'Loading the report…' : 'No report.'}</p>;
  return <ImportReportView report={report.data as ImportReport} />;
}

/** Where the job's result is: the import's report, the evaluation, the parsed skills. */
function ResultLink({ job }: { job: JobInfo }) {
  const [open, setOpen] = useState(false);
  const sourceId = importSourceId(job);
  if (job.kind === 'library.import' && sourceId !== undefined)
    return (
      <>
        <button className="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide report' : 'Report'}
        </button>
        {open && (
          <div className="job-report">
            <ImportReportOf sourceId={sourceId} />
          </div>
        )}
      </>
    );
  if (job.kind === 'eval.run') return <a href="#/evaluation">Open in Evaluation</a>;
  if (job.kind === 'parse.skills' || job.kind === 'index.build')
    return <a href="#/library">Open the library</a>;
  return null;
}

export function JobRow({ job, onChanged }: { job: JobInfo; onChanged: (job: JobInfo) => void }) {
  const client = useClient();
  const action = useAction();
  const outcome = jobOutcome(job);
  const title = jobTitle(job);
  return (
    <li className="job" data-job-kind={job.kind} data-status={job.status} data-outcome={outcome}>
      <div className="row wrap">
        <strong className="job-title" title={job.kind}>
          {title}
        </strong>
        <span className={`badge job-${outcome}`}>{outcomeWords[outcome]}</span>
        <span className="muted small">
          started {new Date(job.createdAt).toLocaleString()}
          {job.finishedAt ? ` · finished ${new Date(job.finishedAt).toLocaleTimeString()}` : ''}
        </span>
        <span className="spacer" />
        {outcome === 'running' && (
          <button
            onClick={async () =>
              onChanged((await action.run(() => client.call('jobs.cancel', { id: job.id }))) ?? job)
            }
          >
            Cancel
          </button>
        )}
        {canResume(job) && (
          <button
            title="Run it again; items already done are skipped, failed ones are retried"
            onClick={async () =>
              onChanged((await action.run(() => client.call('jobs.resume', { id: job.id }))) ?? job)
            }
          >
            Resume
          </button>
        )}
        {canRetryFailed(job) && (
          <button
            title="Parse the skills whose parse failed again, as a new job; the others are kept"
            onClick={async () => {
              const retry = await action.run(() => client.call('parse.skills', { only: 'failed' }));
              if (retry) onChanged(retry);
            }}
          >
            Retry failed
          </button>
        )}
        {outcome !== 'running' && <ResultLink job={job} />}
      </div>
      <ProgressBar progress={job.progress} label={`${title} progress`} />
      <Counters job={job} />
      {outcome === 'cancelled' ? (
        <p className="muted small">
          Cancelled at {job.progress.done.toLocaleString()} of {job.progress.total.toLocaleString()}; Resume
          goes on from there.
        </p>
      ) : (
        job.error && (
          <ErrorNote
            error={{ code: job.error.code as never, message: job.error.message, details: job.error.details }}
          />
        )
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </li>
  );
}
