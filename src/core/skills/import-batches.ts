// Batches of the importer: loading ahead of the writes (a few reads at once, unchanged JSONL lines skipped by digest),
// and how many skills go in one transaction.
import type { Db } from '../store/db';
import type { StoredDigest } from '../store/skills-repo';
import { packAhead } from '../store/text-packing';
import type { BuildResult } from './skill-md';
import type { SourceItem } from './sources/source';

/** Loads run at once by default: the reads of a folder source overlap. */
const loadAhead = 8;

/** Time one batch may take before the host answers requests again. */
export const sliceMs = 50;
export const maxBatch = 1000;
/**
 * Skills in a batch loaded on the importer's thread (a folder tree, a zip): each one's text, parsed front matter and
 * packed bytes are held from its read to the batch's commit, long enough for V8 to move them to the old generation,
 * which it lets grow to about 4x what stays live. At 64 a 68k tree's heap peaked at 192 MiB (237 MiB at 250, 238 MiB
 * at 1,000), in the same time.
 */
export const maxBatchLoadedHere = 64;

/**
 * Batches start at one skill (the first progress shows at once, and a short import is cancelled where the user saw it)
 * and double while a batch takes less than a slice; a batch far over the slice halves the next one.
 */
export function nextBatchSize(size: number, elapsedMs: number, max = maxBatch): number {
  if (elapsedMs < sliceMs) return Math.min(max, size * 2);
  if (elapsedMs > 4 * sliceMs) return Math.max(1, Math.floor(size / 2));
  return size;
}

/** WAL pages between checkpoints while an import writes: 64 MB at SQLite's default page size (its default is 1,000). */
const importCheckpointPages = 16_384;

/**
 * Checkpoints further apart while an import runs: each one copies every page the WAL holds into the file and syncs it,
 * and an import rewrites the same index pages in every batch, so 4 MB apart they were copied again and again. Returns
 * what puts the connection's setting back.
 */
export function spaceCheckpoints(db: Db): () => void {
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  if (before <= 0 || before >= importCheckpointPages) return () => {};
  db.pragma(`wal_autocheckpoint = ${importCheckpointPages}`);
  return () => db.pragma(`wal_autocheckpoint = ${before}`);
}

/** A source item with what loading it gave: a skill to write, the issues that reject it, or "same as stored". */
export interface Loaded {
  item: SourceItem;
  result:
    | BuildResult
    | { ok: 'unchanged'; name: string; skillId: number; warned: boolean }
    | { ok: 'unreadable'; message: string }
    | null;
}

/** Loads one item: the same raw text as the stored skill needs no parse; an abort while reading is 'cancelled'. */
async function loadOne(
  item: SourceItem,
  stored: Map<string, StoredDigest>,
  signal: AbortSignal,
): Promise<Loaded | 'cancelled'> {
  if (item.type === 'rejection') return { item, result: null };
  const known = item.digest ? stored.get(item.relPath) : undefined;
  if (known && known.digest === item.digest)
    return {
      item,
      result: { ok: 'unchanged', name: known.name, skillId: known.id, warned: known.warningCount > 0 },
    };
  try {
    const result = await item.load();
    // The text is deflated in the thread pool while other skills load, not while the batch is written.
    if (result.ok === true) await packAhead(result.skill, result.skill.fullText);
    return { item, result };
  } catch (error) {
    // An abort while reading ends the import as cancelled, not as a rejected skill.
    if (signal.aborted) return 'cancelled';
    return { item, result: { ok: 'unreadable', message: (error as Error).message } };
  }
}

/**
 * Loads a source's items in order, a batch when it is written or (a source that builds skills in a worker) the next
 * ones while a batch is written. At most `concurrency` loads run at once, and no item past what was asked for with
 * `want` is loaded, so the skills held in memory stay bounded.
 */
export class LoadAhead {
  private readonly loads = new Map<number, Promise<Loaded | 'cancelled'>>();
  private next = 0;
  private wanted = 0;
  private running = 0;

  constructor(
    private readonly items: readonly (SourceItem | undefined)[],
    private readonly stored: Map<string, StoredDigest>,
    private readonly signal: AbortSignal,
    private readonly concurrency = loadAhead,
  ) {}

  /** Starts the loads of every item before `end` (as concurrency allows). */
  want(end: number): void {
    this.wanted = Math.max(this.wanted, Math.min(end, this.items.length));
    this.pump();
  }

  /** The items from `start` to `end` loaded, in source order, up to the first one an abort ended. */
  async take(start: number, end: number): Promise<Loaded[]> {
    this.want(end);
    const out: Loaded[] = [];
    for (let i = start; i < end; i++) {
      const loaded = await this.loads.get(i);
      this.loads.delete(i);
      if (loaded === undefined || loaded === 'cancelled') break;
      out.push(loaded);
    }
    return out;
  }

  private pump(): void {
    while (this.next < this.wanted && this.running < this.concurrency && !this.signal.aborted) {
      const load = loadOne(this.items[this.next]!, this.stored, this.signal);
      this.loads.set(this.next++, load);
      this.running++;
      void load.finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}

/**
 * Items a load worker builds ahead of the batch being written: the next batch (up to twice as large while batches
 * grow). At most 128, the worker sat idle once those were built while a batch of 1,000 was written, and the writer then
 * waited for the rest: a 68k JSONL import took 42.3 s against 36.3 s with a whole batch ahead (medians of 5, run
 * interleaved), for 20 MiB more at the peak (231 against 210 MiB) now that the heap's growth is bounded (import-heap.ts).
 */
export function readAheadOf(batchSize: number): number {
  return Math.min(2 * batchSize, maxBatch);
}
