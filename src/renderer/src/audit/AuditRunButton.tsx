// Starts the audit job (the whole library's stale skills, or given skills again), or the LLM review of their high and
// critical findings, and follows it: progress, Cancel, and how it ended with its counts.
import { useEffect, useRef, useState } from 'react';
import type { AuditReviewResult, AuditRunRequest } from '../../../shared/api/audit';
import { isFinished, type JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from '../library/bits';

interface AuditRunResult {
  audited: number;
  findings: Record<string, number>;
  flagged: unknown[];
}

function reviewEnded(job: JobInfo): string {
  const r = job.result as AuditReviewResult | undefined;
  if (job.status !== 'done' || !r) return ended(job, 'Review');
  if (r.reviewed === 0) return 'Every high or critical finding already has a second opinion';
  return `Second opinions on ${r.reviewed} finding${r.reviewed === 1 ? '' : 's'}: ${r.confirmed} confirmed, ${r.likelyBenign} likely benign${r.failed ? `, ${r.failed} without an answer` : ''}`;
}

function ended(job: JobInfo, what = 'Audit'): string {
  if (what === 'Audit' && job.status === 'done') {
    const r = job.result as AuditRunResult | undefined;
    if (!r) return 'Audit finished';
    const found = Object.values(r.findings ?? {}).reduce((a, b) => a + b, 0);
    return `Audited ${r.audited} skill${r.audited === 1 ? '' : 's'}: ${found} finding${found === 1 ? '' : 's'}, ${r.flagged.length} flagged high or critical`;
  }
  if (job.status === 'cancelled') return `${what} cancelled; what it did is kept`;
  return `${what} ${job.status}${job.error ? `: ${job.error.message}` : ''}`;
}

export function AuditRunButton({
  request,
  label,
  title,
  onFinished,
  review = false,
}: {
  request: AuditRunRequest;
  /** Ask the LLM for its second opinion on the high and critical findings instead of auditing. */
  review?: boolean;
  label: string;
  title: string;
  onFinished?(job: JobInfo): void;
}) {
  const client = useClient();
  const action = useAction();
  const [started, setStarted] = useState<JobInfo | null>(null);
  const job = useJob(started);
  const running = job !== null && !isFinished(job.status);
  const finishedId = job && !running ? job.id : null;
  const latest = useRef(onFinished);
  latest.current = onFinished;
  useEffect(() => {
    if (finishedId && job) latest.current?.(job);
    // Once per job, when it ends.
  }, [finishedId]);
  const start = async () => {
    const info = await action.run(() =>
      review
        ? client.call('audit.review', { skillIds: request.skillIds, force: request.force })
        : client.call('audit.run', request),
    );
    if (info) setStarted(info);
  };
  return (
    <div className="audit-run" data-testid={review ? 'audit-review' : 'audit-run'}>
      <div className="row wrap">
        <button onClick={() => void start()} disabled={action.busy || running} title={title}>
          {label}
        </button>
        {running && (
          <button className="ghost" onClick={() => void client.call('jobs.cancel', { id: job.id })}>
            Cancel
          </button>
        )}
        {job && isFinished(job.status) && (
          <span className="muted small" role="status" data-testid="audit-run-end" data-status={job.status}>
            {review ? reviewEnded(job) : ended(job)}
          </span>
        )}
      </div>
      {running && (
        <ProgressBar progress={job.progress} label={review ? 'Review progress' : 'Audit progress'} />
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
