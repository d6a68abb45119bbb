// Jobs: running and past jobs with progress, ETA, token and cost counters; cancel and resume.
import { useEffect, useState } from 'react';
import { isFinished, type JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { JobRow } from '../jobs/JobRow';

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

export function JobsScreen() {
  const listed = useApi('jobs.list', { limit: 200 });
  const [jobs, setJobs] = useState<Map<string, JobInfo>>(new Map());
  useEffect(() => {
    if (listed.data) setJobs(new Map(listed.data.map((j) => [j.id, j])));
  }, [listed.data]);
  // The answer to a Cancel can arrive after the event that the job stopped: the newer state wins.
  const upsert = (job: JobInfo) =>
    setJobs((prev) => {
      const known = prev.get(job.id);
      if (known && known.updatedAt > job.updatedAt) return prev;
      return new Map(prev).set(job.id, job);
    });
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
