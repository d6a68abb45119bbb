// A job's progress where it was started (the skill page's re-parse): the bar while it runs, then how it ended.
import { useEffect, useState } from 'react';
import type { JobInfo } from '../../../shared/jobs';
import { isFinished } from '../../../shared/jobs';
import { useClient, useCuratorEvent } from '../app/context';
import { ProgressBar } from './bits';

const endWords: Record<string, string> = {
  done: 'Re-parse finished',
  failed: 'Re-parse failed',
  cancelled: 'Re-parse cancelled',
  interrupted: 'Re-parse interrupted; resume it from Jobs',
};

export function JobInline({ job: started, label }: { job: JobInfo; label: string }) {
  const client = useClient();
  const [job, setJob] = useState(started);
  useEffect(() => setJob(started), [started]);
  useCuratorEvent((event) => {
    if (event.type === 'job.updated' && event.job.id === started.id) setJob(event.job);
  });
  // An update sent before this listened is not lost: ask once.
  useEffect(() => {
    void client.call('jobs.get', { id: started.id }).then(
      (fresh) => setJob((known) => (isFinished(known.status) ? known : fresh)),
      () => undefined,
    );
  }, [client, started.id]);
  const failed = job.progress.failed ?? 0;
  return (
    <div className="job-inline" data-testid="job-inline" data-status={job.status} role="status">
      {isFinished(job.status) ? (
        <span className={job.status === 'done' && failed === 0 ? 'muted small' : 'error-text small'}>
          {endWords[job.status]}
          {job.status === 'done' && failed > 0 ? ` with ${failed} failed` : ''}
          {job.error ? `: ${job.error.message}` : ''}
        </span>
      ) : (
        <ProgressBar progress={job.progress} label={label} />
      )}
    </div>
  );
}
