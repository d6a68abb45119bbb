// How a states export is told: which statuses it takes by default, and why there is nothing to write (the CLI and the
// core alike), so that an empty file is never written.
import { statusesWithStates, type StatusWithStates } from './api/llm';

/** What Save states… and `states export` take unless asked otherwise: the states a person reviewed. */
export const reviewedStatuses: readonly StatusWithStates[] = ['verified', 'edited'];

const orList = (words: readonly string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/**
 * Says that no skill has states of the statuses asked for, and which statuses the library does have: "Nothing to
 * export: no skill has verified or edited states; this library has 12 parsed".
 */
export function nothingToExport(
  asked: readonly StatusWithStates[],
  inLibrary: Record<StatusWithStates, number>,
): string {
  const askedInOrder = [...statusesWithStates].reverse().filter((s) => asked.includes(s));
  const held = [...statusesWithStates]
    .reverse()
    .filter((s) => inLibrary[s] > 0)
    .map((s) => `${inLibrary[s]} ${s}`);
  const has = held.length ? `this library has ${held.join(', ')}` : 'no skill in this library has states yet';
  return `Nothing to export: no skill has ${orList(askedInOrder)} states; ${has}`;
}
