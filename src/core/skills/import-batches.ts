// Batches of the importer: loading one (a few skills at a time, unchanged JSONL lines skipped by digest), how many
// skills go in one transaction, and undoing a batch's lines in the report when its commit fails.
import type { Db } from '../store/db';
import type { StoredDigest } from '../store/skills-repo';
import { packAhead } from '../store/text-packing';
import type { BuildResult } from './skill-md';
import type { SourceItem } from './sources/source';
import type { ImportReport } from './types';

/** Skills loaded at once: the reads of a folder source overlap. */
const loadAhead = 8;

/** Time one batch may take before the host answers requests again. */
export const sliceMs = 50;
export const maxBatch = 1000;

/**
 * Batches start at one skill (the first progress shows at once, and a short import is cancelled where the user saw it)
 * and double while a batch takes less than a slice; a batch far over the slice halves the next one.
 */
export function nextBatchSize(size: number, elapsedMs: number): number {
  if (elapsedMs < sliceMs) return Math.min(maxBatch, size * 2);
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

const lists = ['added', 'updated', 'unchanged', 'duplicates', 'rejected', 'warnings', 'conflicts'] as const;
type Lengths = Record<(typeof lists)[number], number>;

export function reportLengths(report: ImportReport): Lengths {
  return Object.fromEntries(lists.map((k) => [k, report[k].length])) as Lengths;
}

export function restoreLengths(report: ImportReport, lengths: Lengths): void {
  for (const k of lists) report[k].length = lengths[k];
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

/**
 * Loads a batch (a few at a time, so folder reads overlap) in source order. Stops at the first load an abort ended:
 * what comes back is the loaded prefix.
 */
export async function loadBatch(
  batch: SourceItem[],
  stored: Map<string, StoredDigest>,
  signal: AbortSignal,
): Promise<Loaded[]> {
  const one = async (item: SourceItem): Promise<Loaded | 'cancelled'> => {
    if (item.type === 'rejection') return { item, result: null };
    const known = item.digest ? stored.get(item.relPath) : undefined;
    // The same raw text as the stored skill: nothing to parse.
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
  };
  const out: (Loaded | 'cancelled')[] = [];
  for (let i = 0; i < batch.length; i += loadAhead) {
    out.push(...(await Promise.all(batch.slice(i, i + loadAhead).map(one))));
    if (signal.aborted) break;
  }
  const stop = out.indexOf('cancelled');
  return (stop < 0 ? out : out.slice(0, stop)) as Loaded[];
}
