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

/** Whether a rejected skill refused only for its name's format has a name that differs from its folder too. */
export function alsoForFolderName(rejected: ImportReport['rejected'][number]): boolean {
  return onlyForNameFormat(rejected) && rejected.issues.some((i) => i.rule === 'name-matches-folder');
}

/** How many rejected skills have no error but the name rules and both of them, listed or not. */
export function refusedForNameAndFolder(
  report: Pick<ImportReport, 'rejected' | 'rejectedForNameAndFolder'>,
): number {
  return report.rejectedForNameAndFolder ?? report.rejected.filter(alsoForFolderName).length;
}

/**
 * The skills refused only for their name: all of them, and of those every one whose name differs from its folder and
 * every one whose name breaks the format (a skill with both problems is counted in each).
 */
export interface NameRefusals {
  total: number;
  folder: number;
  format: number;
}

export function nameRefusals(
  report: Pick<
    ImportReport,
    'rejected' | 'rejectedForFolderName' | 'rejectedForNameFormat' | 'rejectedForNameAndFolder'
  >,
): NameRefusals {
  const folderOnly = refusedOnlyForFolderName(report);
  const format = refusedOnlyForNameFormat(report);
  return { total: folderOnly + format, folder: folderOnly + refusedForNameAndFolder(report), format };
}

/**
 * Why skills were refused for their name, in words: "it differs from its folder", or "77 differ from their folder, 13
 * have capitals… (11 have both)": each count is of every skill with that problem.
 */
export function nameReasons({ total, folder, format }: NameRefusals): string {
  const formatWords = 'capitals, spaces or other characters the spec forbids';
  const one = total === 1;
  if (format === 0) return one ? 'it differs from its folder' : 'they differ from their folder';
  if (folder === 0) return one ? `it has ${formatWords}` : `they have ${formatWords}`;
  if (folder === total && format === total)
    return one
      ? `it differs from its folder and has ${formatWords}`
      : `they differ from their folder and have ${formatWords}`;
  const both = folder + format - total;
  const folderWords = folder === 1 ? '1 differs from its folder' : `${folder} differ from their folder`;
  const formatPart = `${format} ${format === 1 ? 'has' : 'have'} ${formatWords}`;
  return `${folderWords}, ${formatPart}${both > 0 ? ` (${both} ${both === 1 ? 'has' : 'have'} both)` : ''}`;
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
