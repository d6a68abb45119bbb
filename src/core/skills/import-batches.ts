// How many skills the importer writes per transaction, and undoing a batch's lines in the report when its commit fails.
import type { ImportReport } from './types';

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

const lists = ['added', 'updated', 'unchanged', 'duplicates', 'rejected', 'warnings', 'conflicts'] as const;
type Lengths = Record<(typeof lists)[number], number>;

export function reportLengths(report: ImportReport): Lengths {
  return Object.fromEntries(lists.map((k) => [k, report[k].length])) as Lengths;
}

export function restoreLengths(report: ImportReport, lengths: Lengths): void {
  for (const k of lists) report[k].length = lengths[k];
}
