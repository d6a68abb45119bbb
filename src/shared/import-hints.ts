// Skills an import refused only because their "name" differs from their folder: common in libraries one does not
// own, and the setting `import.nameFolderMismatch=warning` imports them with a warning. The app and the CLI both say so.
import type { ImportReport } from './api';

export const nameFolderSetting = 'import.nameFolderMismatch';

/** How many rejected skills have no error but the name/folder mismatch. */
export function refusedOnlyForFolderName(rejected: ImportReport['rejected']): number {
  return rejected.filter((r) => {
    const errors = r.issues.filter((i) => i.severity === 'error');
    return errors.length > 0 && errors.every((i) => i.rule === 'name-matches-folder');
  }).length;
}
