// What a label file's import did, said alike by the Evaluation screen and the CLI: a file imported again updates the
// set of its name (keeping items edited in the app) rather than making a second one.
import type { LabelImportAnswer } from './api/evaluation';
import { countOf } from './count-words';
import { firstNames } from './name-list';

export function labelImportWords({
  name,
  itemCount,
  existed,
  added,
  updated,
  keptEdited,
}: LabelImportAnswer): string {
  const tasks = countOf(itemCount, 'task');
  if (!existed) return `New label set “${name}”: ${tasks}.`;
  const kept =
    keptEdited.length > 0
      ? `, ${keptEdited.length} edited here kept as they are (${firstNames(keptEdited)})`
      : '';
  return `Updated the label set “${name}” already here: ${added} added, ${updated} updated${kept}; ${tasks}.`;
}
