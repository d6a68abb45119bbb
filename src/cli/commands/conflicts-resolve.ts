// CLI: `conflicts resolve` answers one conflict (`conflicts resolve 7 keep-both`) or many at once
// (`conflicts resolve --all --keep-both`, `conflicts resolve 3 4 5 --skip`), with --dry-run to list what would change.
import { Command, Option } from 'commander';
import type { ConflictResolution, ResolveConflictsRequest, ResolveConflictsResult } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import { printJson, printLine } from '../output';
import { idOption } from '../number-options';
import { wholeNumberArgument, withCore } from '../run-command';

const resolutions: ConflictResolution[] = ['keep-both', 'replace', 'skip'];

interface ResolveOptions {
  all?: boolean;
  source?: number;
  keepBoth?: boolean;
  replace?: boolean;
  skip?: boolean;
  dryRun?: boolean;
  overwriteEdits?: boolean;
}

/** The request the arguments describe: ids and at most one resolution word, or --all; one resolution in all. */
function requestFrom(args: string[], opts: ResolveOptions): ResolveConflictsRequest {
  const stray = args.find((a) => !(resolutions as string[]).includes(a) && !/^\d+$/.test(a));
  if (stray !== undefined)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `"${stray}" is neither a conflict id nor a resolution (keep-both, replace or skip)`,
    );
  const words = args.filter((a) => (resolutions as string[]).includes(a)) as ConflictResolution[];
  const flags = resolutions.filter((r) => opts[r === 'keep-both' ? 'keepBoth' : r]);
  const chosen = [...new Set([...words, ...flags])];
  if (chosen.length !== 1)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      chosen.length === 0
        ? 'Say how to resolve: keep-both, replace or skip (e.g. --keep-both)'
        : `Give one resolution, not ${chosen.join(' and ')}`,
    );
  const ids = args.filter((a) => !(resolutions as string[]).includes(a)).map(wholeNumberArgument);
  if (opts.all && ids.length > 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Give conflict ids or --all, not both');
  if (!opts.all && ids.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Say which conflicts: their ids, or --all for every open one');
  if (opts.source !== undefined && !opts.all)
    throw new CuratorError('INVALID_ARGUMENT', '--source narrows --all');
  return {
    ...(opts.all ? { all: 'open' as const } : { ids }),
    ...(opts.source !== undefined ? { sourceId: opts.source } : {}),
    resolution: chosen[0]!,
    dryRun: !!opts.dryRun,
    overwriteEdits: !!opts.overwriteEdits,
  };
}

const conflictsWord = (n: number) => `${n} conflict${n === 1 ? '' : 's'}`;

/** One conflict named by id (`resolve 7 keep-both`): one line, with the skill that holds the incoming content. */
function printOne(result: ResolveConflictsResult): void {
  const [item] = result.items;
  if (!item) return;
  if (item.outcome === 'failed') printLine(`conflict #${item.id} not resolved: ${item.error?.message}`);
  else {
    const where = item.skillId !== null ? ` -> skill ${item.skillId} (show ${item.skillId})` : '';
    const edits = item.editedSkills
      .map((e) => `; ${e.change} "${e.name}" (${e.status} by a curator)`)
      .join('');
    printLine(`conflict #${item.id} resolved: ${result.resolution}${where}${edits}`);
  }
}

function printResult(result: ResolveConflictsResult, opts: { one: boolean }): void {
  if (opts.one && !result.dryRun) printOne(result);
  else if (result.items.length === 0) printLine('no open conflicts to resolve');
  else printList(result);
  if (result.failed > 0 && result.items.some((i) => i.error?.message.includes('a person edited')))
    printLine('to replace skills a curator edited, run again with --overwrite-edits');
}

function printList(result: ResolveConflictsResult): void {
  const verb = result.dryRun ? `would ${result.resolution}` : result.resolution;
  for (const item of result.items) {
    const edits = item.editedSkills.map((e) => `${e.change} "${e.name}" (${e.status} by a curator)`);
    const what =
      item.outcome === 'failed'
        ? `not resolved: ${item.error?.message}`
        : `${verb}${item.skillId !== null ? ` -> skill ${item.skillId}` : ''}${edits.length ? `; ${edits.join(', ')}` : ''}`;
    printLine(`#${item.id} ${item.name || '?'}${item.relPath ? ` at ${item.relPath}` : ''}: ${what}`);
  }
  const edited = result.editedSkills
    ? `, ${result.editedSkills} curator-edited skill${result.editedSkills === 1 ? '' : 's'} changed`
    : '';
  printLine(
    result.dryRun
      ? `dry run: ${conflictsWord(result.items.length - result.failed)} would be resolved (${result.resolution})${edited.replace('changed', 'would change')}, ${result.failed} not; nothing was changed`
      : `${conflictsWord(result.resolved)} resolved (${result.resolution})${edited}, ${result.failed} not resolved`,
  );
}

export function registerConflictResolveCommand(program: Command): void {
  const conflicts = program.commands.find((c) => c.name() === 'conflicts');
  if (!conflicts) throw new Error('register the conflicts command first');
  conflicts
    .command('resolve [args...]')
    .description(
      'resolve conflicts: `resolve ID keep-both|replace|skip`, or many with ids or --all and --keep-both|--replace|--skip',
    )
    .option('--all', 'every open conflict')
    .option('--source <id>', 'with --all: only conflicts found importing this source', idOption)
    .addOption(new Option('--keep-both', 'write the incoming skill beside the existing one'))
    .addOption(new Option('--replace', 'the incoming skill takes the existing one’s place'))
    .addOption(new Option('--skip', 'keep the library as it is and remember the choice'))
    .option('--dry-run', 'list what each conflict would do; change nothing')
    .option('--overwrite-edits', 'also change skills whose states a curator edited or verified')
    .action(
      withCore(async (core, g, args: string[], opts: ResolveOptions) => {
        const result = await core['library.resolveConflicts'](requestFrom(args, opts));
        if (result.failed > 0) process.exitCode = 1;
        if (g.json) return printJson(result);
        // `resolve 7 keep-both` (what import and conflicts suggest) answers in one line; it is refused over a
        // curator's edits like any other form, until --overwrite-edits.
        printResult(result, { one: !opts.all && result.items.length === 1 });
      }),
    );
}
