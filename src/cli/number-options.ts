// Parsers for the numeric options of every command. A bad value throws commander's InvalidArgumentError, so commander
// reports it as an option error (`error: option '--k <k>' argument 'abc' is invalid. ...`, exit 1), not a stack.
import { InvalidArgumentError } from 'commander';

function wholeNumberAtLeast(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n))
      throw new InvalidArgumentError('Expected a whole number.');
    if (n < min) throw new InvalidArgumentError(`Expected ${min} or more.`);
    return n;
  };
}

/** k, K, limits and sizes: 0 or a negative count would run and then find nothing. */
export const countOption = wholeNumberAtLeast(1);

/** Ids of runs, sources and skills start at 1. */
export const idOption = wholeNumberAtLeast(1);

/** How many rows to skip. */
export const offsetOption = wholeNumberAtLeast(0);

/** A comma-separated list of counts, e.g. `--k 1,2`. */
export function countListOption(value: string): number[] {
  return value.split(',').map((part) => countOption(part.trim()));
}

/** A comma-separated list of ids, e.g. `--ids 3,7`. */
export function idListOption(value: string): number[] {
  return value.split(',').map((part) => idOption(part.trim()));
}

/** A TCP port; 0 asks for any free one. */
export function portOption(value: string): number {
  const port = offsetOption(value);
  if (port > 65535) throw new InvalidArgumentError('Expected a port from 0 to 65535.');
  return port;
}

/** A margin: any number that is not negative. */
export function marginOption(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x)) throw new InvalidArgumentError('Expected a number.');
  if (x < 0) throw new InvalidArgumentError('Expected 0 or more.');
  return x;
}
