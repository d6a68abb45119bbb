// CLI: profiles (named sets of skills), install/uninstall into agent folders, and the context-budget preview.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { Core } from '../../core';
import { skillIdsByName, skillIdsOfSelectionRun } from '../../core/profiles';
import type { InstallResult, ProfileDetail, ProfileFilter, ReviewStatus } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import type { BudgetEntry, BudgetPreview } from '../../shared/install';
import { printJson, printLine } from '../output';
import { registerInstallVerify } from './install-verify';
import { overrideModes, printOverrides } from './skill-overrides-output';
import { countOption, idOption } from '../number-options';
import { wholeNumberArgument, withCore } from '../run-command';

const targetHelp =
  'claude (~/.claude/skills), claude-project (.claude/skills), codex (~/.codex/skills), agents (.agents/skills) or an absolute folder';

/** --project as typed: a relative folder means one under where the command runs. */
const projectDirOf = (dir: string | undefined): string | undefined =>
  dir === undefined ? undefined : path.resolve(dir);

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Skills named on the command line: names, or #ID for a library id. */
function skillIds(core: Core, refs: string[]): number[] {
  const ids = refs.filter((r) => /^#\d+$/.test(r)).map((r) => Number(r.slice(1)));
  const names = refs.filter((r) => !/^#\d+$/.test(r));
  return [...ids, ...(names.length ? skillIdsByName(core.context, names) : [])];
}

function parseFilter(terms: string[]): ProfileFilter {
  const filter: ProfileFilter = {};
  const yesNo = (key: string, v: string): boolean => {
    if (v === 'yes' || v === 'true') return true;
    if (v === 'no' || v === 'false') return false;
    throw new CuratorError('INVALID_ARGUMENT', `--filter ${key}= takes yes or no`);
  };
  for (const term of terms) {
    const [key, ...rest] = term.split('=');
    const value = rest.join('=');
    if (key === 'status') filter.status = value as ReviewStatus;
    else if (key === 'name') filter.nameContains = value;
    else if (key === 'source') filter.sourceId = wholeNumberArgument(value);
    else if (key === 'warnings') filter.hasWarnings = yesNo(key, value);
    else if (key === 'errors') filter.hasErrors = yesNo(key, value);
    else
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `Unknown filter "${term}": use status=, name=, source=, warnings=yes|no, errors=yes|no`,
      );
  }
  return filter;
}

function printProfile(p: ProfileDetail): void {
  const origin =
    p.origin.kind === 'manual'
      ? 'by hand'
      : `${p.origin.kind}${p.origin.id !== null ? ` #${p.origin.id}` : ''}`;
  printLine(`${p.name}: ${p.skills.length} skill(s), ${origin}${p.origin.note ? ` (${p.origin.note})` : ''}`);
  if (p.description) printLine(`  ${p.description}`);
  if (p.filter) printLine(`  filter: ${JSON.stringify(p.filter)}`);
  for (const s of p.skills) printLine(`  #${s.id} ${s.name}${s.via === 'filter' ? ' (filter)' : ''}`);
  for (const s of p.excluded) printLine(`  removed from the filter's matches: #${s.id} ${s.name}`);
}

function printInstall(r: InstallResult): void {
  printLine(
    `${r.dryRun ? 'would install into' : 'installed into'} ${r.targetDir} (${r.mode}, ${r.set}${r.frozen ? ', frozen' : ''})`,
  );
  for (const c of r.changes)
    printLine(`  ${c.action.padEnd(9)} ${c.folder}${c.reason ? ` — ${c.reason}` : ''}`);
  for (const m of r.missing) printLine(`  missing   ${m.name}/${m.file}: ${m.reason}`);
  const clashes = r.changes.filter((c) => c.action === 'clash').map((c) => c.folder);
  if (clashes.length > 0)
    process.stderr.write(
      `error CONFLICT: ${clashes.length === 1 ? 'a clash' : `${clashes.length} clashes`} left as ${clashes.length === 1 ? 'it is' : 'they are'} (${clashes.join(', ')}); nothing was overwritten${r.dryRun ? '' : ', the rest is installed'}\n`,
    );
}

export function registerProfileCommands(program: Command): void {
  const profile = program.command('profile').description('named sets of skills, to serve or install');
  profile
    .command('list')
    .description('list profiles')
    .action(
      withCore(async (core, g) => {
        const list = await core['profiles.list']({});
        if (g.json) return printJson(list);
        for (const p of list)
          printLine(`${p.name}\t${p.skillCount} skill(s)\t${p.origin.kind}\t${p.description}`);
      }),
    );
  profile
    .command('show <name>')
    .description("a profile's skills")
    .action(
      withCore(async (core, g, name: string) => {
        const p = await core['profiles.get']({ name });
        if (g.json) printJson(p);
        else printProfile(p);
      }),
    );
  profile
    .command('create <name> [skills...]')
    .description('make a profile from skills (names or #ID), a filter, a selection run or an evaluation run')
    .option('--description <text>', 'what the profile is for')
    .option(
      '--filter <key=value>',
      'status=, name=, source=, warnings=yes|no, errors=yes|no (repeatable)',
      collect,
    )
    .option('--from-run <id>', "a selection run's answer", idOption)
    .option('--from-eval <id>', "an evaluation run's answers", idOption)
    .option('--variant <variant>', 'with --from-eval: only this variant')
    .option('--k <k>', 'with --from-eval: only this k', countOption)
    .action(
      withCore(
        async (
          core,
          g,
          name: string,
          refs: string[],
          o: {
            description?: string;
            filter?: string[];
            fromRun?: number;
            fromEval?: number;
            variant?: string;
            k?: number;
          },
        ) => {
          const r = await core['profiles.create']({
            name,
            description: o.description,
            skillIds: refs.length ? skillIds(core, refs) : undefined,
            filter: o.filter ? parseFilter(o.filter) : undefined,
            fromRun: o.fromRun,
            fromEval:
              o.fromEval !== undefined ? { runId: o.fromEval, variant: o.variant, k: o.k } : undefined,
          });
          if (g.json) return printJson(r);
          printProfile(r.profile);
          if (r.notFound.length) printLine(`not in the library any more: ${r.notFound.join(', ')}`);
        },
      ),
    );
  for (const [verb, method, help] of [
    ['add', 'profiles.add', 'add skills (names or #ID) to a profile'],
    ['remove', 'profiles.remove', 'remove skills (names or #ID) from a profile'],
  ] as const)
    profile
      .command(`${verb} <name> <skills...>`)
      .description(help)
      .action(
        withCore(async (core, g, name: string, refs: string[]) => {
          const p = await core[method]({ name, skillIds: skillIds(core, refs) });
          if (g.json) printJson(p);
          else printProfile(p);
        }),
      );
  profile
    .command('delete <name>')
    .description('delete a profile (installed copies stay until uninstalled)')
    .action(
      withCore(async (core, g, name: string) => {
        const r = await core['profiles.delete']({ name });
        if (g.json) printJson(r);
        else printLine(`deleted ${r.deleted}`);
      }),
    );
  profile
    .command('budget <name>')
    .description("what an agent sees of the profile: its skills list against the agent's context budget")
    .addOption(
      new Option('--agent <agent>', 'whose listing').choices(['claude', 'codex', 'agents']).default('claude'),
    )
    .option('--context-tokens <n>', 'context window in tokens (default 200000)', countOption)
    .option('--budget-chars <n>', 'a fixed budget in characters instead of 1% of the context', countOption)
    .option('--max-entry-chars <n>', 'characters per entry before it is cut (default 1536)', countOption)
    .option('--target <target>', `where the skills are installed, for the locations: ${targetHelp}`)
    .option('--project <dir>', 'project folder for claude-project and the project settings (default: here)')
    .option('--out <file>', 'write the listing text to this file')
    .option(
      '--overrides [settings]',
      'Claude Code: preview skillOverrides for the entries cut, in project, local or user settings',
    )
    .option('--write-overrides [settings]', 'Claude Code: write them (project, local or user settings)')
    .option(
      '--override-mode <skill=mode>',
      'with --overrides: on, name-only, user-invocable-only or off for one skill (repeatable)',
      collect,
    )
    .action(
      withCore(
        async (
          core,
          g,
          name: string,
          o: {
            agent: 'claude';
            contextTokens?: number;
            budgetChars?: number;
            maxEntryChars?: number;
            target?: string;
            project?: string;
            out?: string;
            overrides?: string | true;
            writeOverrides?: string | true;
            overrideMode?: string[];
          },
        ) => {
          const request = {
            profile: name,
            agent: o.agent,
            contextTokens: o.contextTokens,
            budgetChars: o.budgetChars,
            maxEntryChars: o.maxEntryChars,
            target: o.target,
            projectDir: projectDirOf(o.project),
          };
          const scope = o.writeOverrides ?? o.overrides;
          if (scope !== undefined) {
            const settings = scope === true ? undefined : settingsScope(scope);
            const req = { ...request, settings, modes: overrideModes(o.overrideMode) };
            const r = o.writeOverrides
              ? await core['install.writeOverrides'](req)
              : await core['install.overrides'](req);
            if (g.json) return printJson(r);
            return printOverrides(r);
          }
          if (o.overrideMode)
            throw new CuratorError(
              'INVALID_ARGUMENT',
              '--override-mode goes with --overrides or --write-overrides',
            );
          const p = await core['install.budget'](request);
          if (o.out) writeFileSync(o.out, p.text);
          if (g.json) return printJson(p);
          printLine(budgetSummary(p));
          for (const e of p.entries)
            if (e.fate !== 'full')
              printLine(`  ${e.fate.padEnd(9)} ${e.name} (${e.chars} → ${e.shownChars})`);
          if (!o.out) printLine(p.text);
        },
      ),
    );

  const installOptions = (c: Command): Command =>
    c
      .requiredOption('--target <target>', targetHelp)
      .option('--project <dir>', 'project folder for claude-project and agents (default: here)')
      .option('--dry-run', 'show what would change, change nothing');
  const install = installOptions(
    program
      .command('install [skills...]')
      .description('install a profile, a selection run or skills (names or #ID) into an agent folder')
      .option('--profile <name>', "the profile's skills")
      .option('--from-run <id>', "a selection run's answer", idOption)
      .addOption(
        new Option('--mode <mode>', "how (default symlink; with --frozen, the lock's)").choices([
          'symlink',
          'copy',
        ]),
      )
      .option(
        '--frozen',
        "install exactly what the target's lock file names, or nothing (refused when the library moved on)",
      ),
  );
  install.action(
    withCore(
      async (
        core,
        g,
        refs: string[],
        o: {
          profile?: string;
          fromRun?: number;
          mode?: 'symlink' | 'copy';
          target: string;
          project?: string;
          dryRun?: boolean;
          frozen?: boolean;
        },
      ) => {
        const ids =
          o.fromRun !== undefined
            ? skillIdsOfSelectionRun(core.context.db, o.fromRun).ids
            : refs.length
              ? skillIds(core, refs)
              : undefined;
        const r = await core['install.run']({
          profile: o.profile,
          skillIds: ids,
          target: o.target,
          mode: o.mode,
          dryRun: o.dryRun,
          projectDir: projectDirOf(o.project),
          frozen: o.frozen,
        });
        if (g.json) printJson(r);
        else printInstall(r);
        // Whatever could be installed was; a clash still means the install is not what was asked for.
        if (r.changes.some((c) => c.action === 'clash')) process.exitCode = 1;
      },
    ),
  );
  registerInstallVerify(install, targetHelp, projectDirOf);
  installOptions(
    program
      .command('uninstall')
      .description(
        'remove what this library installed into an agent folder (one profile, or all), nothing else',
      )
      .option('--profile <name>', "only this profile's skills"),
  ).action(
    withCore(async (core, g, o: { profile?: string; target: string; project?: string; dryRun?: boolean }) => {
      const r = await core['install.uninstall']({
        target: o.target,
        profile: o.profile,
        dryRun: o.dryRun,
        projectDir: projectDirOf(o.project),
      });
      if (g.json) return printJson(r);
      printLine(
        `${r.dryRun ? 'would remove from' : 'removed from'} ${r.targetDir}: ${r.removed.join(', ') || '(nothing)'}`,
      );
      for (const k of r.kept) printLine(`  kept ${k.folder}: ${k.reason}`);
    }),
  );
}

function settingsScope(s: string): 'project' | 'local' | 'user' {
  if (s === 'project' || s === 'local' || s === 'user') return s;
  throw new CuratorError('INVALID_ARGUMENT', `Unknown settings file "${s}": project, local or user`);
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The budget preview in words: what the numbers are and whether anything was cut or dropped. */
function budgetSummary(p: BudgetPreview): string {
  const fates = (fate: BudgetEntry['fate']): number => p.entries.filter((e) => e.fate === fate).length;
  const losses = [
    [fates('cut'), 'cut'],
    [fates('name-only'), 'shown by name only'],
    [fates('dropped'), 'dropped'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${n === 1 ? 'entry' : 'entries'} ${what}`);
  return (
    `${p.agent}: listing ${count(p.usedChars)} of ${count(p.budgetChars)} characters (the agent's budget; ` +
    `${count(p.fullChars)} with nothing cut); each entry is cut at ${count(p.maxEntryChars)} characters; ` +
    `${losses.length ? losses.join(', ') : 'nothing cut or dropped'}.`
  );
}
