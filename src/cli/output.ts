// Printing for the CLI: JSON when asked, otherwise short human lines; job progress on stderr.
import type { JobInfo } from '../shared/jobs';
import { isFinished } from '../shared/jobs';
import { jobSummary, jobTitle } from '../shared/job-words';
import type { Core } from '../core';

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printLine(line = ''): void {
  process.stdout.write(line + '\n');
}

/** Turns the \u0002..\u0003 match markers of snippets into terminal emphasis (or brackets when not a TTY). */
export function renderSnippet(snippet: string): string {
  const tty = process.stdout.isTTY;
  return snippet
    .split('\u0002')
    .join(tty ? '\x1b[1m' : '[')
    .split('\u0003')
    .join(tty ? '\x1b[0m' : ']');
}

function progressLine(job: JobInfo): string {
  const p = job.progress;
  const pct = p.total > 0 ? ` ${Math.floor((p.done / p.total) * 100)}%` : '';
  const eta = p.etaSeconds !== undefined ? ` eta ${p.etaSeconds}s` : '';
  const failed = p.failed ? ` failed ${p.failed}` : '';
  return `${jobTitle(job)}: ${p.done}/${p.total}${pct}${failed}${eta}${p.message ? ` ${p.message}` : ''}`;
}

/** A check's report under --json, with the exit code text mode gives it: 1 when it is not ok. */
export function printJsonReport(report: { ok: boolean }): void {
  printJson(report);
  if (!report.ok) process.exitCode = 1;
}

/** A finished job under --json: the whole answer on stdout, and exit code 1 unless the job is done. */
export function printJobJson(value: unknown, final: JobInfo): void {
  printJson(value);
  if (final.status !== 'done') process.exitCode = 1;
}

/** In text mode a job that did not finish is an error: its own, or why it stopped and how to go on. */
export function requireDone(final: JobInfo): void {
  if (final.status === 'done') return;
  if (final.error) throw final.error;
  throw new Error(`${final.kind} ${final.status}; resume it with: jobs resume ${final.id}`);
}

/** Waits for a job, showing progress on stderr; Ctrl+C cancels the job (a second one exits). */
export async function followJob(core: Core, job: JobInfo, quiet: boolean): Promise<JobInfo> {
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\nCancelling... (Ctrl+C again to quit now)\n');
    void core['jobs.cancel']({ id: job.id });
  };
  process.on('SIGINT', onSigint);
  const off = core.onEvent((event) => {
    if (quiet || event.type !== 'job.updated' || event.job.id !== job.id || isFinished(event.job.status))
      return;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${progressLine(event.job)}`);
  });
  try {
    const final = await core['jobs.wait']({ id: job.id });
    if (!quiet && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    if (!quiet) process.stderr.write(`${jobSummary(final)}\n`);
    return final;
  } finally {
    off();
    process.off('SIGINT', onSigint);
  }
}
