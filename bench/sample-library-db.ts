// A throwaway library file holding the bundled sample library, for benches that score real skills.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSource } from '../src/core/skills/importer';
import { openDb, type Db } from '../src/core/store/db';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SampleLibrary {
  db: Db;
  /** The temporary folder holding the file, removed by close() (a bench may keep other scratch files there). */
  dir: string;
  /** Closes the file and removes its folder. */
  close(): void;
}

export async function openSampleLibrary(prefix: string): Promise<SampleLibrary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = openDb(path.join(dir, 'library.db'));
  const close = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const noop = () => {};
    await importSource(
      { db, clock: () => new Date(), logger: { info: noop, warn: noop } },
      { path: path.join(repoRoot, 'resources/sample-library') },
      { signal: new AbortController().signal, report: noop },
    );
  } catch (error) {
    close();
    throw error;
  }
  return { db, dir, close };
}
