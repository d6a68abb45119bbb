// How the trash is told: what a delete holds, and that a delete pushed older ones out (the CLI and the desktop alike).
import type { DeletedInfo } from './api';

/** Deletes kept however little they hold; older ones are kept only while they hold reviewed states. */
export const trashKept = 20;

export const skillsWord = (n: number) => `${n} skill${n === 1 ? '' : 's'}`;

/**
 * Says that this delete pushed older unreviewed deletes out of the trash, naming them; null when it pushed none out.
 */
export function evictedNote(evicted: readonly Pick<DeletedInfo, 'label' | 'deletedAt'>[]): string | null {
  if (evicted.length === 0) return null;
  const which = evicted.map((d) => `${d.label}, deleted ${d.deletedAt.slice(0, 16).replace('T', ' ')}`);
  const what =
    evicted.length === 1
      ? `The oldest delete in the trash (${which[0]}) can`
      : `The ${evicted.length} oldest deletes in the trash (${which.join('; ')}) can`;
  return `${what} no longer be restored: the trash keeps the last ${trashKept}, and older ones only while they hold reviewed states.`;
}

/**
 * Says which label sets name skills of a delete as gold: their evaluations count those skills as misses until the
 * delete is restored. Null when none does.
 */
export function goldInNote(goldIn: readonly { set: string; skills: string[] }[] | undefined): string | null {
  if (!goldIn || goldIn.length === 0) return null;
  const skills = new Set(goldIn.flatMap((g) => g.skills));
  const one = skills.size === 1;
  const sets = goldIn.map((g) => (one ? `“${g.set}”` : `“${g.set}” (${g.skills.join(', ')})`)).join(', ');
  return `${one ? `${[...skills][0]} is` : `${skills.size} of these skills are`} gold in the label set${goldIn.length === 1 ? '' : 's'} ${sets}: evaluations count ${one ? 'it as a miss' : 'them as misses'} until the delete is restored.`;
}
