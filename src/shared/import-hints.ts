// What an import report says beyond its lists: how many lines each list has (a job's result lists only the first ones),
// and the skills refused only because their "name" differs from their folder: common in libraries one does not own,
// and the setting `import.nameFolderMismatch=warning` imports them with a warning. The app and the CLI both say so.
import type { ImportListName, ImportReport } from './api';

export const nameFolderSetting = 'import.nameFolderMismatch';

/** Lines of each list an import's job result holds, and the screens ask for; the library keeps them all. */
export const importLinesShown = 100;

/** Whether a rejected skill has no error but the name/folder mismatch. */
export function onlyForFolderName(rejected: ImportReport['rejected'][number]): boolean {
  const errors = rejected.issues.filter((i) => i.severity === 'error');
  return errors.length > 0 && errors.every((i) => i.rule === 'name-matches-folder');
}

/** How many rejected skills have no error but the name/folder mismatch, listed or not. */
export function refusedOnlyForFolderName(
  report: Pick<ImportReport, 'rejected' | 'rejectedForFolderName'>,
): number {
  return report.rejectedForFolderName ?? report.rejected.filter(onlyForFolderName).length;
}

/** How many removed skills had states a curator edited or verified, listed or not. */
export function removedReviewed(report: Pick<ImportReport, 'removed' | 'removedReviewed'>): number {
  return report.removedReviewed ?? report.removed.filter((r) => r.reviewStatus).length;
}

/** What a removed skill's line adds when a curator had edited or verified its states. */
export function reviewedNote(removed: ImportReport['removed'][number]): string {
  return removed.reviewStatus ? `had states a curator ${removed.reviewStatus}` : '';
}

/** How many lines a list of the report has, all of them listed or not. */
export function countOf(report: ImportReport, list: ImportListName): number {
  return report.counts?.[list] ?? report[list]?.length ?? 0;
}

/** How many lines of a list the report counts but does not list. */
export function notListed(report: ImportReport, list: ImportListName): number {
  return countOf(report, list) - (report[list]?.length ?? 0);
}
