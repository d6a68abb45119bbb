// Wraps a CLI action: opens the core, prints errors as `error CODE: message` (or JSON), closes the core, sets the exit code.
import type { Command } from 'commander';
import { CuratorError, toErrorData } from '../shared/errors';
import type { Core } from '../core';
import type { GlobalOptions } from './paths';
import { printJson, terminalSafe } from './output';

/** Commands that only read the library: they still work, read-only, on a library this process cannot write. */
const readingCommands = new Set([
  'import-report',
  'list',
  'show',
  'search',
  'stats',
  'sources',
  'conflicts list',
  'jobs list',
  'jobs show',
  'states show',
  'states history',
  'states export',
  'labels list',
  'eval show',
  'eval list',
  'select runs',
  'profile list',
  'profile show',
  'install verify',
  'models list',
  'index status',
  'settings show',
  'backup',
  'check',
  'usage',
  'usage calls',
]);

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export type Action<A extends unknown[]> = (core: Core, globals: GlobalOptions, ...args: A) => Promise<void>;

export function withCore<A extends unknown[]>(action: Action<A>) {
  return async function (this: Command, ...args: A): Promise<void> {
    const globals = this.optsWithGlobals() as GlobalOptions;
    let core: Core | undefined;
    try {
      // The core loads only when a command runs, so `--help` and argument errors stay quick.
      const { openCore } = await import('./host');
      const reads = readingCommands.has(commandPath(this));
      core = openCore(globals, { readonly: reads ? undefined : false });
      if (core.context.db.readonly)
        process.stderr.write(`note: ${core.context.paths.dbFile} is read-only; opened for reading\n`);
      const { conversionNote } = await import('./conversion-note');
      const note = conversionNote(core);
      if (note && commandPath(this) !== 'convert') process.stderr.write(`note: ${note}\n`);
      await action(core, globals, ...args);
    } catch (thrown) {
      // A damaged page met while working: the same guidance as at open (quick_check, last backup).
      const { damagedLibraryError, isCorruption } = await import('../core/store/damaged-library');
      const error =
        core && isCorruption(thrown) ? damagedLibraryError(core.context.paths.dbFile, thrown) : thrown;
      const data = toErrorData(error);
      if (globals.json) printJson({ error: data });
      else {
        process.stderr.write(`error ${data.code}: ${terminalSafe(data.message)}\n`);
        if (data.details !== undefined)
          process.stderr.write(`${terminalSafe(JSON.stringify(data.details, null, 2))}\n`);
      }
      process.exitCode = 1;
    } finally {
      await core?.close();
    }
  };
}

/** A whole number typed as a command's argument (an id): a bad one is an INVALID_ARGUMENT error like any other. */
export function wholeNumberArgument(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n))
    throw new CuratorError('INVALID_ARGUMENT', `Not a whole number: ${value}`);
  return n;
}
