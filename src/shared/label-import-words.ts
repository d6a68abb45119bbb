// What a label file's import did, said alike by the Evaluation screen and the CLI: a file imported again updates the
// set of its name (keeping items edited in the app) rather than making a second one.
import type { LabelImportOutcome } from './api/evaluation';
import { countOf } from './count-words';

export function labelImportWords({ set, existed, added, updated, keptEdited }: LabelImportOutcome): string {
  const tasks = countOf(set.itemCount, 'task');
  if (!existed) return `New label set “${set.name}”: ${tasks}.`;
  const kept =
    keptEdited.length > 0
      ? `, ${keptEdited.length} edited here kept as they are (${keptEdited.slice(0, 5).join(', ')}${keptEdited.length > 5 ? ', …' : ''})`
      : '';
  return `Updated the label set “${set.name}” already here: ${added} added, ${updated} updated${kept}; ${tasks}.`;
}
