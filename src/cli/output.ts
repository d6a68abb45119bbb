// Printing for the CLI: JSON when asked, otherwise short human lines; job progress on stderr.
import type { JobInfo } from '../shared/jobs';
import { isFinished } from '../shared/jobs';
import { jobSummary, jobTitle } from '../shared/job-words';
import type { Core } from '../core';

export function printJson(value: unknown): void {
  // The same value, with what a terminal would act on or hide written as JSON escapes (they occur only in strings).
  const text = JSON.stringify(value, null, 2).replace(
    jsonUnsafe,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  process.stdout.write(text + '\n');
}

// Control characters but tab and newline: skill text is untrusted, and a terminal acts on ESC, OSC and BEL sequences
// (clears the screen, retitles the window, writes the clipboard). The snippet markers \u0002/\u0003 are kept: they
// become emphasis below, after everything else is made inert.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const terminalControls = /[\u0000\u0001\u0004-\u0008\u000b-\u001f\u007f-\u009f]/g;

// Invisible format characters: bidirectional overrides and isolates reorder what follows them on screen (a name can
// read as another), zero-width ones hide inside a name that looks like a known one.
const formatControls = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// JSON.stringify escapes C0 controls itself, not DEL, C1 or the format characters.
const jsonUnsafe = /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** Text with its control and invisible format characters shown as escapes (`\x1b`, `\u202e`), not acted on. */
export function terminalSafe(text: string): string {
  return text
    .replace(terminalControls, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(formatControls, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON or JSONL text as it is, with what a terminal would act on or hide written as JSON escapes. */
export function printJsonText(text: string): void {
  process.stdout.write(
    text.replace(jsonUnsafe, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

export function printLine(line = ''): void {
  process.stdout.write(emphasis(terminalSafe(line)) + '\n');
}

/** A search snippet's match markers (\u0002..\u0003) as emphasis on a terminal, brackets otherwise. */
function emphasis(text: string): string {
  const tty = process.stdout.isTTY;
  return text
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
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${terminalSafe(progressLine(event.job))}`);
  });
  try {
    const final = await core['jobs.wait']({ id: job.id });
    if (!quiet && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    if (!quiet) process.stderr.write(`${terminalSafe(jobSummary(final))}\n`);
    return final;
  } finally {
    off();
    process.off('SIGINT', onSigint);
  }
}
