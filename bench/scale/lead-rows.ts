// Rows of the scale bench measured outside the library (CLI start, host to first answer). Empty here: the compiled
// build of the CLI and host fills it with functions that measure one library size and return their rows.
import type { SynthLibrary } from './synth';

export interface ScaleRow {
  path: string;
  /** Figure as printed, e.g. "0.42 s". */
  now: string;
  reference: string;
  /** now / reference, where both are numbers of the same unit; null when there is no reference. */
  ratio: number | null;
  target: string;
  met: boolean | null;
  /** Raw value for the 10k -> 68k growth check (larger is worse); null to leave the row out of it. */
  value: number | null;
}

export type RowMeasure = (library: SynthLibrary, dbFile: string) => Promise<ScaleRow[]>;

export const leadRows: RowMeasure[] = [];
