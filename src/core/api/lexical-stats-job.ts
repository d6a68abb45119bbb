// The lexical statistics of a large library (models/lexical/library-stats.ts) brought up to date as a job: shown in the
// Jobs screen and `jobs list`, cancelled and resumed like any other; each batch commits, so a stopped job goes on from
// the skills still stale. Long-lived hosts start it when they open a large library and after the library changes, so
// the first offline selection finds the statistics counted; a selection that comes first counts what is left itself.
import type { JobInfo } from '../../shared/jobs';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { sampledFrom } from '../models/lexical/library-index-cache';
import { refreshBatch, staleCount } from '../models/lexical/library-stats';

export const LEXICAL_STATS_JOB = 'library.lexical-stats';
/** Skills per transaction: small enough that searches and imports wait a moment at most between batches. */
const batchSize = 200;
/** A burst of change events (an import's batches) starts one check. */
const settleMs = 2000;

export function registerLexicalStats(ctx: CoreContext): void {
  ctx.jobs.register<Record<string, never>>(LEXICAL_STATS_JOB, async (_params, job) => {
    const { db } = ctx;
    const total = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    let left = staleCount(db);
    for (;;) {
      if (job.signal.aborted)
        throw new CuratorError(
          'CANCELLED',
          'Counting cancelled; it goes on from where it stopped when resumed',
        );
      job.report({
        done: Math.max(0, total - left),
        total,
        message: 'Counting the words of the library for the offline search and selection',
      });
      const did = refreshBatch(db, batchSize);
      if (did === 0) break;
      left = Math.max(0, left - did);
      await new Promise((resolve) => setImmediate(resolve));
    }
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
    try {
      resumeLexicalStats(ctx);
    } catch (error) {
      ctx.logger.warn(`lexical statistics not started: ${String(error)}`);
    }
  }, settleMs);
  timer.unref();
  return timer;
}

/** The statistics job of a large library with stale statistics: resumed, or started; null when not needed. */
export function resumeLexicalStats(ctx: CoreContext): JobInfo | null {
  const { db } = ctx;
  if (!db.open || db.readonly) return null;
  const size = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  if (size <= sampledFrom.skills) return null;
  const earlier = ctx.jobs.list(undefined, 1000).filter((j) => j.kind === LEXICAL_STATS_JOB);
  const running = earlier.find((j) => j.status === 'running' || j.status === 'queued');
  if (running) return running;
  if (staleCount(db) === 0) return null;
  const stopped = earlier.find((j) => j.status !== 'done');
  return stopped ? ctx.jobs.resume(stopped.id) : ctx.jobs.start(LEXICAL_STATS_JOB, {});
}
