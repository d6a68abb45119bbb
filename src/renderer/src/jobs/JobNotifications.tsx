// A notice when a background job ends, with a link to its result; failures stay until dismissed. When the window is
// hidden the system is told too (Electron grants the web Notification API; a browser asks first and may refuse).
import { useEffect, useRef, useState } from 'react';
import { jobOutcome, jobSummary, type JobOutcome } from '../../../shared/job-words';
import type { JobInfo } from '../../../shared/jobs';
import { isFinished } from '../../../shared/jobs';
import { useCuratorEvent } from '../app/context';

interface Notice {
  jobId: string;
  text: string;
  outcome: JobOutcome;
}

const settledAfterMs = 8000;

function resultHref(job: JobInfo): string {
  return job.kind === 'eval.run' ? '#/evaluation' : `#/jobs`;
}

function tellTheSystem(text: string): void {
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted')
    return;
  new Notification('Skill Curator', { body: text });
}

export function JobNotifications() {
  const [notices, setNotices] = useState<(Notice & { href: string })[]>([]);
  const running = useRef(new Set<string>());
  const timers = useRef(new Map<string, number>());
  const dismiss = (jobId: string) => setNotices((all) => all.filter((n) => n.jobId !== jobId));

  useCuratorEvent((event) => {
    if (event.type !== 'job.updated') return;
    const job = event.job;
    if (!isFinished(job.status)) {
      running.current.add(job.id);
      return;
    }
    // Only jobs this window saw running: a list refresh of old jobs is not news.
    if (!running.current.delete(job.id)) return;
    const outcome = jobOutcome(job);
    const text = jobSummary(job);
    setNotices((all) => [
      ...all.filter((n) => n.jobId !== job.id),
      { jobId: job.id, text, outcome, href: resultHref(job) },
    ]);
    tellTheSystem(text);
    if (outcome === 'done' || outcome === 'cancelled')
      timers.current.set(
        job.id,
        window.setTimeout(() => dismiss(job.id), settledAfterMs),
      );
  });
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.jobId} className={`notice notice-${n.outcome}`} data-job-id={n.jobId}>
          <span>{n.text}</span>
          <a href={n.href} onClick={() => dismiss(n.jobId)}>
            Open
          </a>
          <button className="ghost" aria-label="Dismiss" onClick={() => dismiss(n.jobId)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
