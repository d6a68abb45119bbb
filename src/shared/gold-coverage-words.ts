// What the CLI and the Evaluation screen say of a label set's gold skills that the library lacks: every one counts as
// a miss, so figures over a set written for another library (or after a gold skill was deleted) read as zeros
// without it.
import type { GoldCoverage } from './api/evaluation';
import { firstNames } from './name-list';

/**
 * One paragraph, or null when the library holds every gold skill. `restore` says how to restore one delete of the
 * trash (a CLI command, or where the screen's Trash is).
 */
export function missingGoldWords(
  { total, missing, inTrash }: GoldCoverage,
  restore: (deleteIds: number[]) => string,
): string | null {
  if (missing.length === 0) return null;
  const trashed =
    inTrash.length === 0
      ? ''
      : ` ${inTrash.length === missing.length ? (missing.length === 1 ? 'It is' : 'All are') : `${inTrash.length} of them (${firstNames(inTrash.map((t) => t.name))}) ${inTrash.length === 1 ? 'is' : 'are'}`} in the trash: ${restore([...new Set(inTrash.map((t) => t.deleteId))])}.`;
  const rest =
    inTrash.length === missing.length
      ? ''
      : ' Import the skills the set was written for, or label tasks for this library.';
  return (
    `${missing.length} of the ${total} gold skills of this label set ${missing.length === 1 ? 'is' : 'are'} not in ` +
    `the library (${firstNames(missing)}); ${missing.length === 1 ? 'it counts as a miss' : 'they count as misses'}.` +
    trashed +
    rest
  );
}
