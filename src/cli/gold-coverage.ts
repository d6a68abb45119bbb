// The gold skills of a label set that the library does not hold: every one is scored as a miss, so a set written
// for another library evaluates to zeros. The CLI says so beside the figures instead of leaving them unexplained.
import type { CuratorApi } from '../shared/api';

export async function missingGold(
  core: Pick<CuratorApi, 'labels.get' | 'library.get'>,
  setId: number,
): Promise<{ missing: string[]; total: number }> {
  const { items } = await core['labels.get']({ id: setId });
  const names = [...new Set(items.flatMap((i) => i.gold))];
  const missing: string[] = [];
  for (const name of names) {
    try {
      await core['library.get']({ name });
    } catch {
      missing.push(name);
    }
  }
  return { missing, total: names.length };
}

/** One line for the CLI, or null when the library holds every gold skill. */
export function missingGoldLine({ missing, total }: { missing: string[]; total: number }): string | null {
  if (missing.length === 0) return null;
  const some = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ', …' : '');
  return (
    `Note: ${missing.length} of the ${total} gold skills of this label set are not in the library (${some}); ` +
    'they count as misses. Import the skills the set was written for, or label tasks for this library.'
  );
}
