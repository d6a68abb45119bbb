// CLI: what agents used of the library over MCP (usage, usage calls), as a table, JSON or CSV.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Core } from '../../core';
import type { UsageCallsQuery, UsageQuery, UsageRole, UsageSummary } from '../../shared/api/usage';
import { countOption } from '../number-options';
import { printJson, printLine } from '../output';
import { withCore } from '../run-command';
import { skillIdOf } from '../skill-ref';

interface PeriodOptions {
  from?: string;
  to?: string;
  profile?: string;
  csv?: boolean;
  out?: string;
}

const periodOptions = (c: Command): Command =>
  c
    .option('--from <when>', 'calls from this date or time, or this far back (30d, 12h)')
    .option('--to <when>', 'calls up to this date (that whole day) or time')
    .option('--profile <name>', 'only calls served under this profile (mcp --profile)')
    .option('--csv', 'write CSV (to standard output, or to --out)')
    .option('--out <file>', 'write the CSV to this file');

const query = (o: PeriodOptions): UsageQuery => ({ from: o.from, to: o.to, profile: o.profile });

async function writeCsv(core: Core, o: PeriodOptions, kind: 'skills' | 'calls'): Promise<void> {
  const { fileName, text } = await core['usage.csv']({ ...query(o), kind });
  if (!o.out) return void process.stdout.write(text);
  writeFileSync(o.out, text);
  process.stderr.write(`wrote ${o.out} (suggested name ${fileName})\n`);
}

const when = (iso: string | null, none: string): string => (iso ? iso.replace('T', ' ').slice(0, 16) : none);

function printSummary(s: UsageSummary): void {
  const scope = s.profile ? `calls served under profile "${s.profile}"` : 'all calls';
  printLine(
    `Agent usage, ${when(s.from, 'oldest kept')} to ${when(s.to, 'now')}, ${scope}: ${s.calls} calls`,
  );
  if (s.byTool.length > 0) printLine(`  by tool: ${s.byTool.map((t) => `${t.tool} ${t.calls}`).join(', ')}`);
  if (s.clients.length > 0)
    printLine(`  by client: ${s.clients.map((c) => `${c.client} ${c.calls}`).join(', ')}`);
  printLine();
  if (s.calls === 0)
    printLine(
      'No agent called this library in this period; serve it with `skill-curator mcp` and their calls appear here.',
    );
  else if (s.skills.length === 0) printLine('No skill was offered, selected or read in this period.');
  else {
    const width = Math.min(48, Math.max(5, ...s.skills.map((r) => r.name.length)));
    printLine(`${'skill'.padEnd(width)}  offered  selected  read  last used`);
    for (const r of s.skills)
      printLine(
        `${r.name.padEnd(width)}  ${String(r.offered).padStart(7)}  ${String(r.selected).padStart(8)}  ` +
          `${String(r.read).padStart(4)}  ${when(r.lastUsedAt, '')}${r.inLibrary ? '' : '  (no longer in the library)'}`,
      );
  }
  for (const n of s.neverUsed) {
    printLine();
    printLine(
      `Never selected or read under profile "${n.profile}": ${n.skills.length} of its ${n.of} skills` +
        (n.skills.length > 0 ? ` — ${n.skills.map((k) => k.name).join(', ')}` : ''),
    );
  }
  printLine();
  printLine(
    s.retentionDays === 0
      ? 'Recording is off (usage.retentionDays = 0).'
      : `Calls are kept ${s.retentionDays} days (settings set usage.retentionDays=N); oldest kept: ${when(s.oldestCallAt, 'none')}.`,
  );
}

export function registerUsageCommands(program: Command): void {
  const usage = periodOptions(
    program
      .command('usage')
      .description('what agents searched, selected and read over MCP, per skill, with the never-used skills'),
  ).action(
    withCore(async (core, g, o: PeriodOptions) => {
      if (o.csv || o.out) return writeCsv(core, o, 'skills');
      const summary = await core['usage.summary'](query(o));
      if (g.json) return printJson(summary);
      printSummary(summary);
    }),
  );
  periodOptions(
    usage
      .command('calls')
      .description(
        'the recorded calls, newest first; a select_skills call names its run (replay #ID, or open it in the lab)',
      )
      .option('--skill <skill>', 'only calls that used this skill (name or #ID)')
      .option('--role <role>', 'with --skill: offered, selected or read')
      .option('--limit <n>', 'most calls to show', countOption, 50),
  ).action(
    withCore(async (core, g, own: PeriodOptions & { skill?: string; role?: UsageRole; limit: number }) => {
      // Options the two commands share are read by `usage` when they come after `calls`.
      const o = { ...usage.opts<PeriodOptions>(), ...own };
      if (o.csv || o.out) return writeCsv(core, o, 'calls');
      const req: UsageCallsQuery = {
        ...query(o),
        limit: o.limit,
        ...(o.skill ? { skillId: await skillIdOf(core, o.skill) } : {}),
        ...(o.role ? { role: o.role } : {}),
      };
      const page = await core['usage.calls'](req);
      if (g.json) return printJson(page);
      if (page.items.length === 0) return printLine('No recorded calls match.');
      for (const c of page.items) {
        const skills = c.skills.map(
          (s) => `${s.role} ${s.name}${s.path && s.path !== 'SKILL.md' ? `/${s.path}` : ''}`,
        );
        printLine(
          `${when(c.at, '')}  ${c.tool}${c.runId !== null ? ` run #${c.runId}` : ''}  ${c.client ?? 'unknown client'}` +
            `${c.profile ? `  profile "${c.profile}"` : `  (${c.rule})`}`,
        );
        if (c.query) printLine(`    ${JSON.stringify(c.query)}`);
        if (skills.length > 0) printLine(`    ${skills.join(', ')}`);
      }
      if (page.total > page.items.length)
        printLine(`(${page.items.length} of ${page.total}; --limit shows more)`);
    }),
  );
}
