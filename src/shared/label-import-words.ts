// What a label file's import did, said alike by the Evaluation screen and the CLI: a file imported again updates the
// set of its name (keeping items edited in the app) rather than making a second one; a skill-creator file says what it
// was read as.
import type { LabelImportAnswer } from './api/evaluation';
import { countOf } from './count-words';
import { firstNames } from './name-list';

const formatWords = { evals: 'evals.json', triggers: 'trigger queries' } as const;

/** What a skill-creator file was read as ("Read as skill-creator trigger queries for pdf."); empty for JSONL. */
export function labelFormatWords({ format, skill }: Pick<LabelImportAnswer, 'format' | 'skill'>): string {
  return format === 'jsonl'
    ? ''
    : `Read as skill-creator ${formatWords[format]} for ${skill ?? 'one skill'}.`;
}

export function labelImportWords({
  name,
  itemCount,
  existed,
  added,
  updated,
  keptEdited,
  format,
  skill,
}: LabelImportAnswer): string {
  const tasks = countOf(itemCount, 'task');
  const read = format === 'jsonl' ? '' : ` ${labelFormatWords({ format, skill })}`;
  if (!existed) return `New label set “${name}”: ${tasks}.${read}`;
  const kept =
    keptEdited.length > 0
      ? `, ${keptEdited.length} edited here kept as they are (${firstNames(keptEdited)})`
      : '';
  return `Updated the label set “${name}” already here: ${added} added, ${updated} updated${kept}; ${tasks}.${read}`;
}
