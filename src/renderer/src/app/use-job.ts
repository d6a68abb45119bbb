// Follows one job to its end: progress from job.updated events, the end also from jobs.wait in case an event is missed.
import { useEffect, useState } from 'react';
import { isFinished, type JobInfo } from '../../../shared/jobs';
import { useClient, useCuratorEvent } from './context';

export function useJob(initial: JobInfo | null): JobInfo | null {
  const client = useClient();
  const [job, setJob] = useState<JobInfo | null>(initial);
  useEffect(() => setJob(initial), [initial]);

  useCuratorEvent((event) => {
    if (event.type === 'job.updated' && job && event.job.id === job.id) setJob(event.job);
  });

  const id = job?.id;
  const finished = job ? isFinished(job.status) : true;
  useEffect(() => {
    if (!id || finished) return;
    let stop = false;
    const poll = async () => {
      while (!stop) {
        try {
          const latest = await client.call('jobs.wait', { id, timeoutMs: 2000 });
          if (stop) return;
          setJob(latest);
          if (isFinished(latest.status)) return;
        } catch {
          // The event stream still updates the job; try again shortly.
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    };
    void poll();
    return () => {
      stop = true;
    };
  }, [client, id, finished]);
  return job;
}
