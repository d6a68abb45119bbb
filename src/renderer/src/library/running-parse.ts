// The skill-parsing job running now, wherever it was started (this button, a skill page, the CLI, before a reload):
// one is asked for once, then followed by job events. Only one parse runs at a time, so one is enough.
import { useEffect, useState } from 'react';
import { isFinished, type JobInfo } from '../../../shared/jobs';
import { useClient, useCuratorEvent } from '../app/context';

const parseKind = 'parse.skills';

export function useRunningParse(): [JobInfo | null, (job: JobInfo) => void] {
  const client = useClient();
  const [job, setJob] = useState<JobInfo | null>(null);
  useEffect(() => {
    let live = true;
    void client.call('jobs.list', { status: 'running' }).then(
      (jobs) => {
        const running = jobs.find((j) => j.kind === parseKind);
        if (live && running) setJob((known) => known ?? running);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client]);
  useCuratorEvent((event) => {
    if (event.type !== 'job.updated' || event.job.kind !== parseKind) return;
    setJob(isFinished(event.job.status) ? null : event.job);
  });
  const started = (next: JobInfo) => setJob(isFinished(next.status) ? null : next);
  return [job, started];
}
