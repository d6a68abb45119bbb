// Wraps a CLI action: opens the core, prints errors as `error CODE: message` (or JSON), closes the core, sets the exit code.
import type { Command } from 'commander';
import { toErrorData } from '../shared/errors';
import type { Core } from '../core';
import type { GlobalOptions } from './host';
import { openCore } from './host';
import { printJson } from './output';

export type Action<A extends unknown[]> = (core: Core, globals: GlobalOptions, ...args: A) => Promise<void>;

export function withCore<A extends unknown[]>(action: Action<A>) {
  return async function (this: Command, ...args: A): Promise<void> {
    const globals = this.optsWithGlobals() as GlobalOptions;
    let core: Core | undefined;
    try {
      core = openCore(globals);
      await action(core, globals, ...args);
    } catch (error) {
      const data = toErrorData(error);
      if (globals.json) printJson({ error: data });
      else {
        process.stderr.write(`error ${data.code}: ${data.message}\n`);
        if (data.details !== undefined) process.stderr.write(`${JSON.stringify(data.details, null, 2)}\n`);
      }
      process.exitCode = 1;
    } finally {
      await core?.close();
    }
  };
}

export function intOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new Error(`Not a whole number: ${value}`);
  return n;
}
