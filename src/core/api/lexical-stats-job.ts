// The lexical statistics of a large library (models/lexical/library-stats.ts) brought up to date as a job: shown in the
// Jobs screen and `jobs list`, cancelled and resumed like any other; each batch commits, so a stopped job goes on from
// the skills still stale. Long-lived hosts start it when they open a large library and after the library changes, so
// the first offline selection finds the statistics counted; a selection that comes first counts what is left itself.
import type { JobInfo } from '../../shared/jobs';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { sampledFrom } from '../models/lexical/library-index-cache';
import { staleCountInWindows, refreshInSlices } from '../models/lexical/stats-walk';

export const LEXICAL_STATS_JOB = 'library.lexical-stats';
/** A burst of change events (an import's batches) starts one check. */
const settleMs = 2000;

export function registerLexicalStats(ctx: CoreContext): void {
  ctx.jobs.register<Record<string, never>>(LEXICAL_STATS_JOB, async (_params, job) => {
    const { db } = ctx;
    const total = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    const message = 'Counting the words of the library for the offline search and selection';
    job.report({ done: 0, total, message });
    let left = await staleCountInWindows(db, job.signal);
    const report = () => job.report({ done: Math.max(0, total - left), total, message });
    if (!job.signal.aborted) report();
    await refreshInSlices(db, {
      signal: job.signal,
      onBatch: (did) => {
        left = Math.max(0, left - did);
        report();
      },
    });
    if (job.signal.aborted)
      throw new CuratorError(
        'CANCELLED',
        'Counting cancelled; it goes on from where it stopped when resumed',
      );
    return { skills: total };
  });
  let pending: NodeJS.Timeout | undefined;
  ctx.events.on((event) => {
    if (event.type !== 'library.changed' || pending) return;
    pending = resumeLexicalStatsSoon(ctx, () => (pending = undefined));
  });
}

/**
 * resumeLexicalStats a moment later (and never throwing): the app and `serve` call it at start, so the first screen's
 * answers do not wait behind the job's first batches (host to first answer at 68k: 0.50 s, 0.81 s with it at once).
 */
export function resumeLexicalStatsSoon(ctx: CoreContext, fired?: () => void): NodeJS.Timeout {
  const timer = setTimeout(() => {
    fired?.();
    resumeLexicalStats(ctx).catch((error: unknown) =>
      ctx.logger.warn(`lexical statistics not started: ${String(error)}`),
    );
  }, settleMs);
  timer.unref();
  return timer;
}

/**
 * The statistics job of a large library with stale statistics: resumed, or started; null when not needed. Whether
 * anything is stale is read window by window, so a host that calls this at start keeps answering.
 */
export async function resumeLexicalStats(ctx: CoreContext): Promise<JobInfo | null> {
  const { db } = ctx;
  if (!db.open || db.readonly) return null;
  const size = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  if (size <= sampledFrom.skills) return null;
  const earlier = () => ctx.jobs.list(undefined, 1000).filter((j) => j.kind === LEXICAL_STATS_JOB);
  const live = () => earlier().find((j) => j.status === 'running' || j.status === 'queued');
  const running = live();
  if (running) return running;
  if ((await staleCountInWindows(db)) === 0 || !db.open) return null;
  // Another check may have started the job while this one counted.
  const started = live();
  if (started) return started;
  const stopped = earlier().find((j) => j.status !== 'done');
  return stopped ? ctx.jobs.resume(stopped.id) : ctx.jobs.start(LEXICAL_STATS_JOB, {});
}
