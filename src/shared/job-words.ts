// Jobs in a person's words: a title ("Import zjunlp-skills", "Parse 531 skills"), how it ended, and whether Resume
// can help. Shared by the Jobs screen, the job notifications and the CLI.
import type { JobInfo } from './jobs';

const lastPathPart = (p: string) =>
  p
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || p;

function field(params: unknown, key: string): unknown {
  return params && typeof params === 'object' ? (params as Record<string, unknown>)[key] : undefined;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function jobTitle(job: Pick<JobInfo, 'kind' | 'params' | 'progress'>): string {
  const { params, progress } = job;
  switch (job.kind) {
    case 'library.import': {
      const label = field(params, 'label');
      const where = field(params, 'path');
      const name =
        typeof label === 'string' && label ? label : typeof where === 'string' ? lastPathPart(where) : '';
      return name ? `Import ${name}` : 'Import';
    }
    case 'parse.skills': {
      if (progress.total > 0) return `Parse ${count(progress.total, 'skill')}`;
      const only = field(params, 'only');
      if (only === 'failed') return 'Retry failed parses';
      const ids = field(params, 'ids');
      return Array.isArray(ids) ? `Parse ${count(ids.length, 'skill')}` : 'Parse unparsed skills';
    }
    case 'models.download': {
      const repo = field(params, 'repo');
      return typeof repo === 'string' ? `Download ${repo}` : 'Download a model';
    }
    case 'index.build':
      return progress.total > 0
        ? `Build the vector index (${count(progress.total, 'skill')})`
        : 'Build the vector index';
    case 'library.convert-text':
      return progress.total > 0
        ? `Convert the library: each skill text stored once (${count(progress.total, 'skill')})`
        : 'Convert the library: each skill text stored once';
    case 'library.lexical-stats':
      return 'Library word statistics';
    case 'eval.run': {
      const variants = field(params, 'variants');
      const n = Array.isArray(variants) ? variants.length : 0;
      return n > 0 ? `Evaluate ${count(n, 'variant')}` : 'Evaluate';
    }
    default:
      return job.kind;
  }
}

export type JobOutcome = 'running' | 'done' | 'done-with-failures' | 'failed' | 'cancelled' | 'interrupted';

/** How a job ended, where a job that finished with failed items is not plain "done". */
export function jobOutcome(job: Pick<JobInfo, 'status' | 'progress' | 'error'>): JobOutcome {
  if (job.status === 'queued' || job.status === 'running') return 'running';
  if (job.status === 'done') return (job.progress.failed ?? 0) > 0 ? 'done-with-failures' : 'done';
  if (job.status === 'failed' && job.error?.code === 'CANCELLED') return 'cancelled';
  return job.status;
}

export const outcomeWords: Record<JobOutcome, string> = {
  running: 'running',
  done: 'done',
  'done-with-failures': 'done with failures',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

// Errors that a second try cannot mend: the request itself is wrong or the thing it names is gone.
const hopelessCodes = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'UNAVAILABLE', 'CONFLICT']);

/**
 * Resume re-runs an unfinished job with the items already done skipped: it helps after an interruption, a cancel, or
 * an error that may pass (endpoint, network, a crash); not after an error that names a bad request, and not for a
 * finished job (a parse's failed items are retried by a new parse of the failed ones).
 */
export function canResume(job: Pick<JobInfo, 'status' | 'progress' | 'error'>): boolean {
  const outcome = jobOutcome(job);
  if (outcome === 'interrupted' || outcome === 'cancelled') return true;
  if (outcome === 'failed') return !hopelessCodes.has(job.error?.code ?? '');
  return false;
}

/** A finished parse with failed items: a new parse of the failed ones can mend them. */
export function canRetryFailed(job: Pick<JobInfo, 'kind' | 'status' | 'progress' | 'error'>): boolean {
  return job.kind === 'parse.skills' && jobOutcome(job) === 'done-with-failures';
}

/** One line for a notification or the CLI: "Import zjunlp-skills: done with failures (3 of 531 failed)". */
export function jobSummary(job: Pick<JobInfo, 'kind' | 'params' | 'status' | 'progress' | 'error'>): string {
  const outcome = jobOutcome(job);
  const { done, total, failed = 0 } = job.progress;
  let detail = '';
  if (outcome === 'done') detail = total > 0 ? ` (${count(done, 'item')})` : '';
  else if (outcome === 'done-with-failures')
    detail = ` (${failed.toLocaleString('en')} of ${total.toLocaleString('en')} failed)`;
  else if (outcome === 'failed' && job.error) detail = `: ${job.error.message}`;
  else if (outcome === 'cancelled' || outcome === 'interrupted')
    detail = ` at ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`;
  return `${jobTitle(job)}: ${outcomeWords[outcome]}${detail}`;
}
