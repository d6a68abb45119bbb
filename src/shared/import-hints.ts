// What an import report says beyond its lists: how many lines each list has (a job's result lists only the first ones),
// and the skills refused only because of their "name" (it differs from their folder, or has capitals or spaces the spec
// forbids): common in libraries one does not own, and the settings `import.nameFolderMismatch=warning` and
// `import.nameFormat=warning` import them with a warning. The app and the CLI both say so.
import type { ImportListName, ImportReport } from './api';

export const nameFolderSetting = 'import.nameFolderMismatch';
export const nameFormatSetting = 'import.nameFormat';

const nameRules = new Set(['name-matches-folder', 'name-format']);

/** Lines of each list an import's job result holds, and the screens ask for; the library keeps them all. */
export const importLinesShown = 100;

/** Whether a rejected skill has no error but the name/folder mismatch. */
export function onlyForFolderName(rejected: ImportReport['rejected'][number]): boolean {
  const errors = rejected.issues.filter((i) => i.severity === 'error');
  return errors.length > 0 && errors.every((i) => i.rule === 'name-matches-folder');
}

/** Whether a rejected skill has no error but the name rules the settings relax, one of them the name's format. */
export function onlyForNameFormat(rejected: ImportReport['rejected'][number]): boolean {
  const errors = rejected.issues.filter((i) => i.severity === 'error');
  return errors.some((i) => i.rule === 'name-format') && errors.every((i) => nameRules.has(i.rule));
}

/** How many rejected skills have no error but the name/folder mismatch, listed or not. */
export function refusedOnlyForFolderName(
  report: Pick<ImportReport, 'rejected' | 'rejectedForFolderName'>,
): number {
  return report.rejectedForFolderName ?? report.rejected.filter(onlyForFolderName).length;
}

/** How many rejected skills have no error but the name rules, the name's format among them, listed or not. */
export function refusedOnlyForNameFormat(
  report: Pick<ImportReport, 'rejected' | 'rejectedForNameFormat'>,
): number {
  return report.rejectedForNameFormat ?? report.rejected.filter(onlyForNameFormat).length;
}

/** Why skills were refused for their name, in words: "it differs from its folder", "…has capitals or spaces…". */
export function nameReasons(byFolder: number, byFormat: number): string {
  const format = 'capitals, spaces or other characters the spec forbids';
  if (byFormat === 0) return 'it differs from the folder';
  if (byFolder === 0) return `it has ${format}`;
  const folder = byFolder === 1 ? '1 differs from its folder' : `${byFolder} differ from their folder`;
  return `${folder}, ${byFormat} ${byFormat === 1 ? 'has' : 'have'} ${format}`;
}

/** The settings that would let in the skills refused only for their name, as `settings set` takes them. */
export function nameSettingsToRelax(
  report: Pick<ImportReport, 'rejected' | 'rejectedForFolderName' | 'rejectedForNameFormat'>,
): string[] {
  const byFolder = refusedOnlyForFolderName(report) > 0;
  // A name with capitals or spaces almost never equals its folder, so both settings are named then.
  const byFormat = refusedOnlyForNameFormat(report) > 0;
  return [
    ...(byFolder || byFormat ? [`${nameFolderSetting}=warning`] : []),
    ...(byFormat ? [`${nameFormatSetting}=warning`] : []),
  ];
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
