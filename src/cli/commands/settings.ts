// CLI: show and change settings (`settings set section.key=value ...`).
import type { Command } from 'commander';
import { printJson, printLine } from '../output';
import { withCore } from '../run-command';
import { settingsPatchFrom } from '../settings-assignments';

export function registerSettingsCommands(program: Command): void {
  const settings = program.command('settings').description('tunables, engines, models and the LLM endpoint');
  settings
    .command('show', { isDefault: true })
    .description('every setting with its value')
    .action(
      withCore(async (core) => {
        printJson(await core['settings.get']({}));
      }),
    );
  settings
    .command('set <assignments...>')
    .description('e.g. settings set llm.baseURL=http://127.0.0.1:8000/v1 llm.model=qwen selection.recallK=40')
    .action(
      withCore(async (core, g, assignments: string[]) => {
        const { patch, changes } = settingsPatchFrom(await core['settings.get']({}), assignments);
        const next = await core['settings.update']({ patch });
        if (g.json) return printJson(next);
        for (const c of changes)
          printLine(
            `${c.key} = ${JSON.stringify(c.to)}${c.from === c.to ? ' (unchanged)' : ` (was ${JSON.stringify(c.from)})`}`,
          );
      }),
    );
}
