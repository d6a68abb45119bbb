// CLI: `install verify`, the drift between an agent folder and its lock file, in words or JSON; exit 1 on drift.
import type { Command } from 'commander';
import { CuratorError } from '../../shared/errors';
import type { InstallVerifyResult, VerifiedEntry } from '../../shared/install';
import { printJson, printLine } from '../output';
import { withCore } from '../run-command';

function entryLines(e: VerifiedEntry): string[] {
  const lines: string[] = [];
  const at = (what: string, text: string): string =>
    `  ${what.padEnd(9)} ${e.folder}${text ? `: ${text}` : ''}`;
  if (!e.drift) lines.push(at('ok', ''));
  if (e.folderMissing) lines.push(at('missing', 'the whole folder'));
  else if (e.missing.length) lines.push(at('missing', e.missing.join(', ')));
  if (e.changed.length) lines.push(at('changed', e.changed.join(', ')));
  if (e.extra.length) lines.push(at('extra', e.extra.join(', ')));
  if (e.problem) lines.push(at('problem', e.problem));
  if (e.library === 'moved-on')
    lines.push(at('library', 'moved on from the locked content (install to take it; --frozen refuses)'));
  if (e.library === 'gone') lines.push(at('library', `no longer holds "${e.skill}"`));
  return lines;
}

export function printVerify(r: InstallVerifyResult): void {
  if (!r.locked) {
    printLine(`${r.targetDir}: no lock file, so nothing Skill Curator installed to verify`);
    return;
  }
  const drifted = r.entries.filter((e) => e.drift).length;
  printLine(
    `${r.targetDir}: ${drifted === 0 ? `clean, ${r.entries.length} skill(s) as the lock says` : `drift in ${drifted} of ${r.entries.length} skill(s)`}`,
  );
  for (const e of r.entries) for (const line of entryLines(e)) printLine(line);
  for (const u of r.unmanaged) printLine(`  unmanaged ${u} (not in the lock; not Skill Curator's)`);
}

export function registerInstallVerify(
  install: Command,
  targetHelp: string,
  projectDirOf: (d?: string) => string | undefined,
): void {
  install
    .command('verify')
    .description('report drift between an agent folder and its lock file, changing nothing (exit 1 on drift)')
    .option('--target <target>', `(required) ${targetHelp}`)
    .option('--project <dir>', 'project folder for claude-project and agents (default: here)')
    .action(
      withCore(async (core, g, o: { target?: string; project?: string }) => {
        // `install` has the same options and, parsing first, may take them: either holds what was typed.
        const typed = g as { target?: string; project?: string };
        const target = o.target ?? typed.target;
        if (target === undefined)
          throw new CuratorError(
            'INVALID_ARGUMENT',
            'install verify needs --target: the agent folder to check',
          );
        const r = await core['install.verify']({
          target,
          projectDir: projectDirOf(o.project ?? typed.project),
        });
        if (g.json) printJson(r);
        else printVerify(r);
        // No lock is nothing verified, which a check in CI should not take for clean.
        if (!r.clean || !r.locked) process.exitCode = 1;
      }),
    );
}
