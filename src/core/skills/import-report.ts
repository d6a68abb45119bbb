// The report of an import as it runs: each line goes to the library with the write it reports (rolled back with it),
// and only the first lines of each list and the counts stay in memory. A 68k import's report held whole in the heap
// until the end was most of what its heap kept, and was stored twice (the report and the job's result).
import { importLists, type ImportListCounts, type ImportListName } from '../../shared/api';
import {
  importLinesShown as linesShown,
  alsoForFolderName,
  onlyForFolderName,
  onlyForNameFormat,
} from '../../shared/import-hints';
import type { Db } from '../store/db';
import { appendReportLine, closeReport, openReport, type ReportLine } from '../store/import-reports-repo';
import type { ImportReport, SourceKind } from './types';

interface Mark {
  counts: ImportListCounts;
  forFolderName: number;
  forNameFormat: number;
  forNameAndFolder: number;
  removedReviewed: number;
}

export class ImportReportWriter {
  /** What the import returns: counts, and the first `linesShown` lines of each list. */
  readonly report: ImportReport;
  private counts = Object.fromEntries(importLists.map((list) => [list, 0])) as ImportListCounts;
  private forFolderName = 0;
  private forNameFormat = 0;
  private forNameAndFolder = 0;
  private removedReviewed = 0;
  private readonly id: number;

  constructor(
    private readonly db: Db,
    head: { sourceId: number; sourceUri: string; kind: SourceKind; jobId: string | null; now: string },
  ) {
    this.id = openReport(db, head.sourceId, head.jobId, head.now);
    this.report = {
      sourceId: head.sourceId,
      sourceUri: head.sourceUri,
      kind: head.kind,
      total: 0,
      added: [],
      updated: [],
      unchanged: [],
      removed: [],
      duplicates: [],
      rejected: [],
      warnings: [],
      conflicts: [],
      cancelled: false,
    };
  }

  /** Records a line; inside a transaction it is undone with it (undo the counts with `restore`). */
  push<L extends ImportListName>(list: L, line: ReportLine<L>): void {
    appendReportLine(this.db, this.id, list, line);
    if (this.counts[list]++ < linesShown) (this.report[list] as ReportLine<L>[]).push(line);
    if (list === 'rejected' && onlyForFolderName(line as ReportLine<'rejected'>)) this.forFolderName++;
    if (list === 'rejected' && onlyForNameFormat(line as ReportLine<'rejected'>)) this.forNameFormat++;
    if (list === 'rejected' && alsoForFolderName(line as ReportLine<'rejected'>)) this.forNameAndFolder++;
    if (list === 'removed' && (line as ReportLine<'removed'>).reviewStatus) this.removedReviewed++;
  }

  count(list: ImportListName): number {
    return this.counts[list];
  }

  /** Where the report stands, to go back to should the transaction that wrote the next lines roll back. */
  mark(): Mark {
    return {
      counts: { ...this.counts },
      forFolderName: this.forFolderName,
      forNameFormat: this.forNameFormat,
      forNameAndFolder: this.forNameAndFolder,
      removedReviewed: this.removedReviewed,
    };
  }

  restore(mark: Mark): void {
    this.counts = { ...mark.counts };
    this.forFolderName = mark.forFolderName;
    this.forNameFormat = mark.forNameFormat;
    this.forNameAndFolder = mark.forNameAndFolder;
    this.removedReviewed = mark.removedReviewed;
    for (const list of importLists) {
      const listed = this.report[list] as unknown[];
      listed.length = Math.min(listed.length, this.counts[list]);
    }
  }

  /** Stores the report's head and counts; returns what the job's result holds. */
  close(cancelled: boolean): ImportReport {
    const { report } = this;
    report.cancelled = cancelled;
    report.counts = { ...this.counts };
    report.rejectedForFolderName = this.forFolderName;
    report.rejectedForNameFormat = this.forNameFormat;
    report.rejectedForNameAndFolder = this.forNameAndFolder;
    if (this.counts.removed > 0) report.removedReviewed = this.removedReviewed;
    if (importLists.some((list) => this.counts[list] > linesShown)) report.shownAtMost = linesShown;
    closeReport(this.db, this.id, report, this.counts);
    return report;
  }
}
