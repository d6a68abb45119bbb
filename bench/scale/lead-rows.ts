// Rows of the scale bench measured outside the library: CLI `--help` and the HTTP host from spawn to its first answer
// (library.stats on this size's library), the compiled build against the tsx sources as the reference, same run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../median';
import { helpSeconds, hostFirstAnswerSeconds, launchers } from '../startup';
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

const repeats = 5;

let built = false;

async function startupRows(_library: SynthLibrary, dbFile: string): Promise<ScaleRow[]> {
  // The compiled build must be of these sources (it refuses a library migrated by newer ones).
  if (!built) execFileSync(process.execPath, [path.resolve('scripts', 'build-cli.mjs')]);
  built = true;
  const data = mkdtempSync(path.join(os.tmpdir(), 'sc-scale-start-'));
  try {
    const help = { compiled: [] as number[], tsx: [] as number[] };
    const host = { compiled: [] as number[], tsx: [] as number[] };
    for (let i = 0; i < repeats; i++)
      for (const name of ['compiled', 'tsx'] as const) {
        help[name].push(helpSeconds(launchers[name]));
        host[name].push(await hostFirstAnswerSeconds(launchers[name], data, dbFile));
      }
    const row = (label: string, s: { compiled: number[]; tsx: number[] }, limit: number): ScaleRow => {
      const now = median(s.compiled);
      const reference = median(s.tsx);
      return {
        path: label,
        now: `${now.toFixed(2)} s`,
        reference: `tsx ${reference.toFixed(2)} s`,
        ratio: now / reference,
        target: `<= ${limit} s`,
        met: now <= limit,
        value: now,
      };
    };
    return [row('CLI --help (compiled)', help, 0.5), row('host to first answer (compiled)', host, 0.6)];
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

export const leadRows: RowMeasure[] = [startupRows];
