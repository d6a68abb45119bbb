// Jobs: running and past jobs with progress, ETA, token and cost counters; cancel and resume.
import { useEffect, useState } from 'react';
import { isFinished, type JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { ProgressBar } from '../library/bits';

const counterLabels: Record<string, string> = {
  promptTokens: 'prompt tokens',
  completionTokens: 'completion tokens',
  tokens: 'tokens',
  cost: 'est. cost',
  estimatedCost: 'est. cost',
  cached: 'from cache',
  protected: 'kept (edited or verified)',
  crossEncoderPairs: 'cross-encoder pairs',
  llmCalls: 'LLM calls',
};

/** The long actions a curator starts by hand; each becomes a job listed below. */
function StartJobs({ onStarted }: { onStarted: (job: JobInfo) => void }) {
  const client = useClient();
  const action = useAction();
  const start = async (call: () => Promise<JobInfo>) => {
    const job = await action.run(call);
    if (job) onStarted(job);
  };
  return (
    <section className="panel" aria-label="Start a job">
      <h2>Start</h2>
      <div className="row wrap">
        <button
          onClick={() => void start(() => client.call('parse.skills', { only: 'unparsed' }))}
          disabled={action.busy}
        >
          Parse unparsed skills
        </button>
        <button
          onClick={() => void start(() => client.call('parse.skills', { only: 'failed' }))}
          disabled={action.busy}
        >
          Retry failed parses
        </button>
        <button onClick={() => void start(() => client.call('index.build', {}))} disabled={action.busy}>
          Build the vector index
        </button>
        <span className="muted small">
          Parsing uses the LLM endpoint in Settings; edited and verified states are never overwritten.
        </span>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </section>
  );
}

function Counters({ counters }: { counters: Record<string, number> | undefined }) {
  if (!counters || Object.keys(counters).length === 0) return null;
  return (
    <span className="counters small">
      {Object.entries(counters).map(([k, v]) => (
        <span key={k} className="counter">
          {counterLabels[k] ?? k}: <strong>{/cost/i.test(k) ? v.toFixed(4) : v.toLocaleString()}</strong>
        </span>
      ))}
    </span>
  );
}

function JobRow({ job, onChanged }: { job: JobInfo; onChanged: (job: JobInfo) => void }) {
  const client = useClient();
  const action = useAction();
  const finished = isFinished(job.status);
  const canResume = job.status === 'interrupted' || job.status === 'failed' || job.status === 'cancelled';
  return (
    <li className="job" data-job-kind={job.kind} data-status={job.status}>
      <div className="row wrap">
        <strong>{job.kind}</strong>
        <span className={`badge job-${job.status}`}>{job.status}</span>
        <span className="muted small">
          started {new Date(job.createdAt).toLocaleString()}
          {job.finishedAt ? ` · finished ${new Date(job.finishedAt).toLocaleTimeString()}` : ''}
        </span>
        <span className="spacer" />
        {!finished && (
          <button
            onClick={async () =>
              onChanged((await action.run(() => client.call('jobs.cancel', { id: job.id }))) ?? job)
            }
          >
            Cancel
          </button>
        )}
        {canResume && (
          <button
            title="Run it again; items already done are skipped, failed ones are retried"
            onClick={async () =>
              onChanged((await action.run(() => client.call('jobs.resume', { id: job.id }))) ?? job)
            }
          >
            Resume
          </button>
        )}
      </div>
      <ProgressBar progress={job.progress} label={`${job.kind} progress`} />
      <Counters counters={job.progress.counters} />
      {job.error && (
        <ErrorNote
          error={{ code: job.error.code as never, message: job.error.message, details: job.error.details }}
        />
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </li>
  );
}

export function JobsScreen() {
  const listed = useApi('jobs.list', { limit: 200 });
  const [jobs, setJobs] = useState<Map<string, JobInfo>>(new Map());
  useEffect(() => {
    if (listed.data) setJobs(new Map(listed.data.map((j) => [j.id, j])));
  }, [listed.data]);
  const upsert = (job: JobInfo) => setJobs((prev) => new Map(prev).set(job.id, job));
  useCuratorEvent((event) => {
    if (event.type === 'job.updated') upsert(event.job);
  });
  const all = [...jobs.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const running = all.filter((j) => !isFinished(j.status));
  const past = all.filter((j) => isFinished(j.status));
  return (
    <div className="jobs">
      <StartJobs onStarted={upsert} />
      <ErrorNote error={listed.error} />
      <section className="panel" aria-label="Running jobs">
        <h2>Running ({running.length})</h2>
        {running.length === 0 ? (
          <p className="muted">Nothing is running. Imports, parsing, indexing and evaluations appear here.</p>
        ) : (
          <ul className="job-list">
            {running.map((j) => (
              <JobRow key={j.id} job={j} onChanged={upsert} />
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-label="Past jobs">
        <h2>Past ({past.length})</h2>
        {past.length === 0 ? (
          <p className="muted">No finished jobs yet.</p>
        ) : (
          <ul className="job-list">
            {past.map((j) => (
              <JobRow key={j.id} job={j} onChanged={upsert} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
