// A task parse given with a selection request (typed in the lab, read from a file, or written by the calling agent over
// MCP) is checked before anything runs, and a bad one is refused with the one thing to fix: a blank item would be
// scored as if it said nothing, and wrong counts have no graph.
import { maxGivenParseChars, maxGivenParseSubtasks } from '../../shared/api';
import { CuratorError } from '../../shared/errors';

const refuse = (message: string): never => {
  throw new CuratorError('INVALID_ARGUMENT', message);
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function checkGivenParse(parse: { subtasks?: unknown; states?: unknown } | undefined): void {
  if (!parse) return;
  const { subtasks, states } = parse;
  if (!Array.isArray(subtasks)) refuse('The parse has no list of sub-tasks ("subtasks": m texts)');
  if (!Array.isArray(states)) refuse('The parse has no list of states ("states": m + 1 texts)');
  const m = (subtasks as unknown[]).length;
  const n = (states as unknown[]).length;
  if (m === 0) refuse('The parse has no sub-task: give at least one, and one more state than sub-tasks');
  if (m > maxGivenParseSubtasks)
    refuse(`The parse has ${m} sub-tasks; give at most ${maxGivenParseSubtasks} (merge the smallest steps)`);
  if (n !== m + 1)
    refuse(
      `The parse has ${plural(m, 'sub-task')} and ${plural(n, 'state')}: give ${plural(m + 1, 'state')} ` +
        `(s0 before the first sub-task, then one after each sub-task)` +
        (n >= 2 ? `, or ${plural(n - 1, 'sub-task')} for these states` : ''),
    );
  const check = (items: unknown[], label: (i: number) => string) =>
    items.forEach((item, i) => {
      if (typeof item !== 'string' || item.trim() === '')
        refuse(`${label(i)} of the parse is empty: write it, or clear the parse to run without one`);
      if ((item as string).length > maxGivenParseChars)
        refuse(
          `${label(i)} of the parse is ${(item as string).length.toLocaleString('en-US')} characters; ` +
            `keep each sub-task and state under ${maxGivenParseChars.toLocaleString('en-US')}`,
        );
    });
  check(states as unknown[], (i) => `State s${i}`);
  check(subtasks as unknown[], (i) => `Sub-task t${i}`);
}
