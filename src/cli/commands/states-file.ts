// CLI: states files in and out: `states import FILE` applies reviewed states, `states export [FILE]` writes them.
import { InvalidArgumentError, type Command } from 'commander';
import { statusesWithStates, type StatusWithStates } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import { nothingToExport, reviewedStatuses } from '../../shared/states-words';
import { printJson, printLine, terminalSafe } from '../output';
import { withCore } from '../run-command';
import { withOverwriteFlag } from '../overwrite-hint';

/** `--status verified,edited`: the statuses of the skills to export. */
function statusListOption(value: string): StatusWithStates[] {
  if (value.trim() === 'all') return [...statusesWithStates];
  const asked = value.split(',').map((s) => s.trim());
  for (const s of asked)
    if (!(statusesWithStates as readonly string[]).includes(s))
      throw new InvalidArgumentError(
        `Expected a comma-separated list of ${statusesWithStates.join(', ')}, or all.`,
      );
  return asked as StatusWithStates[];
}

export function registerStatesFileCommands(states: Command): void {
  states
    .command('import <file>')
    .description(
      'apply reviewed states from JSONL ({name, precondition, completion} per line, as `states export` writes); a line with "status": "verified" is marked verified, one with "parsed" stays a parse to review',
    )
    .option('--verify', 'mark every line verified')
    .option('--overwrite', 'also replace states edited or verified here (old values go to history)')
    .action(
      withCore(async (core, g, file: string, opts: { verify?: boolean; overwrite?: boolean }) => {
        const r = await core['states.import']({
          path: file,
          verify: !!opts.verify,
          overwrite: !!opts.overwrite,
        });
        if (g.json) return printJson(r);
        printLine(
          `applied ${r.applied}; unchanged ${r.unchanged.length}; kept human edits ${r.keptHumanEdits.length}; unknown skills ${r.unknownSkills.length}; bad lines ${r.errors.length}`,
        );
        if (r.suppressions.applied + r.suppressions.unchanged > 0)
          printLine(
            `  audit suppressions: ${r.suppressions.applied} added, ${r.suppressions.unchanged} already here (each holds only on the content it was made on)`,
          );
        for (const e of r.errors) printLine(`  line ${e.line}: ${e.message}`);
        const some = (names: string[]) =>
          names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length - 5} more)` : '');
        if (r.unknownSkills.length > 0)
          printLine(`  skipped, no skill of that name in the library: ${some(r.unknownSkills)}`);
        if (r.keptHumanEdits.length > 0)
          printLine(
            `  kept your edited or verified states of ${some(r.keptHumanEdits)}; --overwrite replaces them (the old values go to history)`,
          );
      }),
    );
  states
    .command('export [file]')
    .description(
      'write the verified and edited states (--status for others) as JSONL for `states import` in another library ({name, precondition, completion, status} per line, by name); to standard output without a file or with -',
    )
    .option(
      '--status <statuses>',
      `only skills with these statuses, comma-separated (${statusesWithStates.join(', ')}), or all; default: ${reviewedStatuses.join(',')}, as Save states… in the app`,
      statusListOption,
    )
    .option('--overwrite', 'replace the file if it already exists')
    .action(
      withCore(
        async (
          core,
          g,
          file: string | undefined,
          opts: { status?: StatusWithStates[]; overwrite?: boolean },
        ) => {
          const toFile = file !== undefined && file !== '-';
          const statuses = opts.status ?? [...reviewedStatuses];
          // Nothing matched is said, with the statuses the library has, and no empty file (or output) is written.
          const nothing = async () => {
            const all = await core['states.export']({ statuses: [...statusesWithStates] });
            const more = statusesWithStates.filter((s) => all.byStatus[s] > 0 && !statuses.includes(s));
            return new CuratorError(
              'NOT_FOUND',
              `${nothingToExport(statuses, all.byStatus)}${more.length ? `; --status ${more.join(',')} (or --status all) exports those` : ''}. Nothing was written.`,
            );
          };
          if (!toFile) {
            const out = await core['states.export']({ statuses });
            if (out.content === '') throw await nothing();
            // Each line is JSON, so control characters in a name are escaped: the data is safe on a terminal as is.
            process.stdout.write(out.content);
            return;
          }
          const r = await core['states.export']({
            statuses,
            path: file,
            overwrite: !!opts.overwrite,
          }).catch(async (error: unknown) => {
            if (error instanceof CuratorError && error.code === 'CONFLICT') throw withOverwriteFlag(error);
            if (error instanceof CuratorError && error.message.startsWith('Nothing to export'))
              throw await nothing();
            throw error;
          });
          if (g.json) return printJson({ path: r.path, byStatus: r.byStatus, suppressions: r.suppressions });
          const total = statusesWithStates.reduce((n, s) => n + r.byStatus[s], 0);
          const parts = [...statusesWithStates]
            .reverse()
            .filter((s) => r.byStatus[s] > 0)
            .map((s) => `${r.byStatus[s]} ${s}`);
          const counts = parts.length ? ` (${parts.join(', ')})` : '';
          process.stderr.write(
            terminalSafe(
              `wrote the states of ${total} skill${total === 1 ? '' : 's'}${counts}` +
                `${r.suppressions > 0 ? ` and ${r.suppressions} audit suppression${r.suppressions === 1 ? '' : 's'}` : ''} to ${r.path}`,
            ) + '\n',
          );
        },
      ),
    );
}
