// The library conversion of migrations 005/006 and 034 as a job: shown in the Jobs screen and `jobs list`, cancelled and
// resumed like any other, going on from the cursor stored in the library. Long-lived hosts (the app, `serve`) start
// it when they open a library that needs it; the CLI runs it with `library convert`.
import type { JobInfo } from '../../shared/jobs';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import {
  conversionMessages,
  conversionProgress,
  conversionState,
  convertBatch,
  finishConversion,
} from '../store/text-index-conversion';

export const CONVERT_JOB = 'library.convert-text';
/** Skills per transaction: small enough that searches and imports wait a moment at most between batches. */
const batchSize = 200;
/** More than the job runner's gap between progress events. */
const progressGapMs = 300;

export function registerLibraryConversion(ctx: CoreContext): void {
  ctx.jobs.register<Record<string, never>>(CONVERT_JOB, async (_params, job) => {
    const { db } = ctx;
    const stopIfCancelled = () => {
      if (job.signal.aborted)
        throw new CuratorError(
          'CANCELLED',
          'Conversion cancelled; it goes on from where it stopped when resumed',
        );
    };
    for (;;) {
      stopIfCancelled();
      const step = convertBatch(db, batchSize);
      const progress = conversionProgress(db);
      job.report({
        ...progress,
        message: conversionMessages[conversionState(db)?.phase ?? 'vacuum'],
      });
      if (step !== 'more') break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // VACUUM holds the library until it ends: let the throttled progress say so first.
    await new Promise((resolve) => setTimeout(resolve, progressGapMs));
    stopIfCancelled();
    job.report({ ...conversionProgress(db), message: conversionMessages.vacuum });
    const result = finishConversion(db);
    ctx.events.emit({ type: 'library.changed', reason: 'text-index-converted' });
    return result;
  });
}

/** The conversion job of this library: resumed when an earlier one stopped, started when none ran; null if not needed. */
export function resumeLibraryConversion(ctx: CoreContext): JobInfo | null {
  if (ctx.db.readonly || !conversionState(ctx.db)) return null;
  const earlier = ctx.jobs.list(undefined, 1000).filter((j) => j.kind === CONVERT_JOB);
  const running = earlier.find((j) => j.status === 'running' || j.status === 'queued');
  if (running) return running;
  const stopped = earlier.find((j) => j.status !== 'done');
  return stopped ? ctx.jobs.resume(stopped.id) : ctx.jobs.start(CONVERT_JOB, {});
}
