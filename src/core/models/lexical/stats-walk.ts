// The lexical statistics brought up to date without holding a host's thread: the library is walked in id windows,
// each batch sized to take about `sliceMs`, with a turn of the event loop between batches, so the UI's requests are
// answered while a 68k library is counted. Skills that go stale behind the walk are found by the next pass; the walk
// ends with a pass that finds nothing.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../store/db';
import { lastSkillId, refreshSlice, staleCountIn } from './library-stats';

/** Ids per scan window: a window of counted skills is read in a few ms at 68k skills. */
const windowIds = 2000;
/** How long one batch may hold the thread, by default; the batch size follows it. */
const sliceMs = 25;
const firstBatch = 8;
const maxBatch = 500;

/** Stale skills, counted window by window with a turn between windows. */
export async function staleCountInWindows(db: Db, signal?: AbortSignal, window = windowIds): Promise<number> {
  const end = lastSkillId(db);
  let stale = 0;
  for (let after = 0; after < end && db.open && !signal?.aborted; after += window) {
    stale += staleCountIn(db, after, after + window);
    await nextTurn();
  }
  return stale;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** After each batch, with the number of skills it counted. */
  onBatch?: (did: number) => void;
  /** Ids per scan window (a library's tests walk small ones). */
  windowIds?: number;
  /** How long one batch may hold the thread. */
  sliceMs?: number;
}

/** Refreshes until a whole pass finds nothing stale; stops between batches when the signal aborts. */
export async function refreshInSlices(db: Db, options: WalkOptions = {}): Promise<void> {
  let batch = firstBatch;
  let after = 0;
  let didInPass = 0;
  const window = options.windowIds ?? windowIds;
  const slice = options.sliceMs ?? sliceMs;
  for (;;) {
    if (options.signal?.aborted) return;
    const upto = after + window;
    const started = performance.now();
    const { did, last } = refreshSlice(db, batch, after, upto);
    const took = performance.now() - started;
    // A full batch may have left more in its window; otherwise the window is done.
    after = did === batch ? last : upto;
    if (did > 0) {
      didInPass += did;
      options.onBatch?.(did);
      if (took < slice / 2) batch = Math.min(maxBatch, batch * 2);
      else if (took > slice) batch = Math.max(1, Math.floor(batch / 2));
    }
    if (after >= lastSkillId(db)) {
      if (didInPass === 0) return;
      after = 0;
      didInPass = 0;
    }
    await nextTurn();
  }
}
