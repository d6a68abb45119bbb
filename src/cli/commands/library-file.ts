// CLI: backup and check of the library file itself.
import type { Command } from 'commander';
import { printJson, printLine } from '../output';
import { withCore } from '../run-command';

export function registerLibraryFileCommands(program: Command): void {
  program
    .command('backup <file>')
    .description(
      'write a consistent copy of the library (recent writes in the -wal file included) to a new file',
    )
    .action(
      withCore(async (core, g, file: string) => {
        const { backupLibrary } = await import('../../core/store/backup');
        const written = backupLibrary(core.context.db, file);
        if (g.json) printJson({ backup: written });
        else printLine(`Backed up ${core.context.paths.dbFile} to ${written}`);
      }),
    );
  program
    .command('check')
    .description('run SQLite integrity_check on the library and name the last automatic backup')
    .action(
      withCore(async (core, g) => {
        const rows = core.context.db.pragma('integrity_check(20)', { simple: false }) as {
          integrity_check: string;
        }[];
        const problems = rows.map((r) => r.integrity_check).filter((line) => line !== 'ok');
        const { lastBackup } = await import('../../core/store/backup');
        const backup = lastBackup(core.context.paths.dbFile) ?? null;
        if (g.json) printJson({ ok: problems.length === 0, problems, lastBackup: backup });
        else {
          printLine(
            problems.length === 0 ? 'integrity_check: ok' : `integrity_check:\n  ${problems.join('\n  ')}`,
          );
          printLine(`last automatic backup: ${backup ?? 'none'}`);
        }
        if (problems.length > 0) process.exitCode = 1;
      }),
    );
}
