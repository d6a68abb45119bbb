// CLI: show and change settings (`settings set section.key=value ...`).
import type { Command } from 'commander';
import type { SettingsPatch } from '../../shared/settings';
import { printJson } from '../output';
import { withCore } from '../run-command';

function parseValue(raw: string): unknown {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw !== '' && !Number.isNaN(Number(raw))) return Number(raw);
  return raw;
}

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
      withCore(async (core, _g, assignments: string[]) => {
        const patch: Record<string, Record<string, unknown>> = {};
        for (const a of assignments) {
          const m = /^([a-zA-Z]+)\.([a-zA-Z]+)=(.*)$/s.exec(a);
          if (!m) throw new Error(`Expected section.key=value, got "${a}"`);
          (patch[m[1]!] ??= {})[m[2]!] = parseValue(m[3]!);
        }
        printJson(await core['settings.update']({ patch: patch as SettingsPatch }));
      }),
    );
}
