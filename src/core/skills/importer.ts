// Imports one source into the library as a job: skills written in batches (one transaction each, redone skill by skill
// should one skill fail: import-writes.ts), progress after each commit, cancel between batches. Re-importing a source updates what changed and removes what the
// source no longer has.
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { CuratorError } from '../../shared/errors';
import { storedDigests, type StoredDigest } from '../store/skills-repo';
import {
  LoadAhead,
  maxBatch,
  maxBatchLoadedHere,
  nextBatchSize,
  readAheadOf,
  spaceCheckpoints,
} from './import-batches';
import { boundHeapGrowth } from './import-heap';
import { removeMissing } from './import-removals';
import { writeBatch } from './import-writes';
import { markImported, upsertSource } from '../store/sources-repo';
import { ImportReportWriter } from './import-report';
import { checkSourcePath, detectSourceKind, openSource } from './sources/open-source';
import type { SourceItem } from './sources/source';
import {
  defaultImportSettings,
  type ImportJob,
  type ImportSettings,
  type ImportReport,
  type ImportRequest,
  type LibraryDeps,
} from './types';

const onConflictChoices = ['record', 'keep-both', 'replace', 'skip'];

export interface ImportOptions {
  /** Size caps and validation policy; missing ones take defaultImportSettings. */
  settings?: Partial<ImportSettings>;
  /** JSONL dumps of this many bytes or more build their skills in a worker thread (default 4 MiB). */
  jsonlWorkerFromBytes?: number;
}

export async function importSource(
  deps: LibraryDeps,
  request: ImportRequest,
  job: ImportJob,
  options: ImportOptions = {},
): Promise<ImportReport> {
  // From the start: a limit V8 set before the import (at a collection while a large source was listed) holds until
  // the next full collection.
  const restoreHeapGrowth = boundHeapGrowth();
  try {
    return await importBounded(deps, request, job, options);
  } finally {
    restoreHeapGrowth();
  }
}

async function importBounded(
  deps: LibraryDeps,
  request: ImportRequest,
  job: ImportJob,
  options: ImportOptions,
): Promise<ImportReport> {
  const { db, clock, logger } = deps;
  const limits = { ...defaultImportSettings, ...options.settings };
  if (!request.path) throw new CuratorError('INVALID_ARGUMENT', 'An import needs a path');
  const absolute = path.resolve(request.path);
  const kind = request.kind ?? (await detectSourceKind(absolute));
  await checkSourcePath(kind, absolute);
  const onConflict = request.onConflict ?? 'record';
  if (!onConflictChoices.includes(onConflict)) {
    throw new CuratorError('INVALID_ARGUMENT', `onConflict must be one of ${onConflictChoices.join(', ')}`);
  }
  const uri = await fsp.realpath(absolute).catch(() => {
    throw new CuratorError('NOT_FOUND', `Nothing to import at ${absolute} (it vanished)`);
  });
  const source = upsertSource(
    db,
    kind,
    uri,
    request.label ?? null,
    path.basename(uri),
    clock().toISOString(),
  );
  const writer = new ImportReportWriter(db, {
    sourceId: source.id,
    sourceUri: uri,
    kind,
    jobId: job.id ?? null,
    now: clock().toISOString(),
  });
  const { report } = writer;
  job.report({ done: 0, total: 0, message: `Reading ${uri}` });
  const stored = storedDigests(db, source.id);
  let opened;
  try {
    opened = await openSource(kind, uri, limits, job.signal, {
      onFolder: (folders, rel) =>
        job.report({ done: 0, total: 0, message: `Reading ${rel || uri} (${folders} folders so far)` }),
      knownLines: digestsByPlace(stored),
      workerFromBytes: options.jsonlWorkerFromBytes,
    });
  } catch (error) {
    if (job.signal.aborted) return writer.close(true);
    // The job fails with this error, and the report says the same where reports are read.
    writer.push('rejected', {
      relPath: '',
      file: path.basename(uri),
      issues: [
        {
          severity: 'error',
          rule: 'source-unreadable',
          message: (error as Error).message,
          file: path.basename(uri),
        },
      ],
    });
    writer.close(false);
    throw error;
  }
  const seen = new Set<string>();
  const started = clock().getTime();
  // Items are let go once written: what a 68k source lists is not held to the end of the import.
  const items: (SourceItem | undefined)[] = opened.items;
  report.total = items.length;
  let batchSize = 1;
  const ahead = new LoadAhead(items, stored, job.signal, opened.workerLoads);
  const restoreCheckpoints = spaceCheckpoints(db);
  try {
    for (let index = 0; index < items.length;) {
      if (job.signal.aborted) {
        report.cancelled = true;
        break;
      }
      const batch = items.slice(index, index + batchSize) as SourceItem[];
      for (const item of batch) seen.add(item.relPath);
      // In a worker, the next batch is built while this one is written.
      if (opened.workerLoads) ahead.want(index + batch.length + readAheadOf(batchSize));
      const loaded = await ahead.take(index, index + batch.length);
      if (loaded.length < batch.length) report.cancelled = true;
      // Only the write holds the host: loading waits on reads, and the host answers requests meanwhile.
      const writeStart = performance.now();
      writeBatch(deps, source.id, loaded, onConflict, writer);
      const writeMs = performance.now() - writeStart;
      items.fill(undefined, index, index + loaded.length);
      for (const { item } of loaded) {
        index++;
        const elapsed = (clock().getTime() - started) / 1000;
        job.report({
          done: index,
          total: items.length,
          failed: writer.count('rejected'),
          message: item.relPath || item.file,
          etaSeconds: Math.round((elapsed / index) * (items.length - index)),
        });
      }
      if (report.cancelled) break;
      batchSize = nextBatchSize(batchSize, writeMs, opened.workerLoads ? maxBatch : maxBatchLoadedHere);
      // Let the host answer requests between batches: loading an unchanged line never waits on I/O.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    restoreCheckpoints();
    await opened.close();
  }
  // Only a complete listing of the source can say what it no longer has.
  if (!report.cancelled && opened.complete !== false) removeMissing(deps, writer, source.id, seen);
  if (!report.cancelled) markImported(db, source.id, clock().toISOString());
  logger.info('import finished', {
    source: uri,
    added: writer.count('added'),
    updated: writer.count('updated'),
    unchanged: writer.count('unchanged'),
    removed: writer.count('removed'),
    rejected: writer.count('rejected'),
    conflicts: writer.count('conflicts'),
    cancelled: report.cancelled,
  });
  return writer.close(report.cancelled);
}

function* digestsByPlace(stored: Map<string, StoredDigest>): Generator<[string, string]> {
  for (const [relPath, { digest }] of stored) yield [relPath, digest];
}
