// CLI: the audit for people and for CI — run it (stale skills, or the named ones), print the flagged skills or a
// SARIF / JSON / Markdown report, exit 1 when a finding reaches --fail-on; show one skill's findings; suppress.
import { InvalidArgumentError, type Command } from 'commander';
import type { Core } from '../../core';
import type {
  AuditReportFormat,
  AuditReviewResult,
  Severity,
  SkillAudit,
  SpecProfile,
  StoredFinding,
  SuppressionScope,
} from '../../shared/api/audit';
import { severities, severityRank, specProfiles } from '../../shared/api/audit';
import { idOption } from '../number-options';
import { followJob, printJson, printLine, requireDone } from '../output';
import { withCore } from '../run-command';
import { skillIdOf } from '../skill-ref';

interface AuditOptions {
  skills?: string[];
  force?: boolean;
  profile?: SpecProfile;
  format?: AuditReportFormat;
  out?: string;
  overwrite?: boolean;
  minSeverity?: Severity;
  failOn?: Severity | 'off';
}

function oneOf<T extends string>(values: readonly T[], what: string) {
  return (value: string): T => {
    if (!values.includes(value as T))
      throw new InvalidArgumentError(`${what} is one of ${values.join(', ')}.`);
    return value as T;
  };
}

const severityOption = oneOf(severities, 'A severity');
const listOption = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const where = (f: StoredFinding): string => `${f.file}${f.line ? `:${f.line}` : ''}`;

function printFinding(f: StoredFinding): void {
  printLine(`  #${f.id} ${f.severity.padEnd(8)} ${f.ruleId}  ${where(f)}`);
  printLine(`      ${f.excerpt}`);
  printLine(`      ${f.why}${f.seenAfter ? ` (seen ${f.seenAfter})` : ''}`);
  if (f.review)
    printLine(
      f.review.verdict === null
        ? `      second opinion (${f.review.model}): no usable answer — ${f.review.error}`
        : `      second opinion (${f.review.model}): ${f.review.verdict === 'confirm' ? 'confirms' : 'likely benign'} — ${f.review.reason}`,
    );
  if (f.suppressed) printLine(`      suppressed (${f.suppressed.scope}): ${f.suppressed.reason}`);
  else if (f.suppressionToReview)
    printLine(
      `      was suppressed on other content ("${f.suppressionToReview.reason}"): review it again, the file changed`,
    );
}

function printSkillAudit(a: SkillAudit): void {
  const when = a.auditedAt ? `audited ${a.auditedAt.replace('T', ' ').slice(0, 16)}` : 'not audited';
  printLine(
    `${a.name} (#${a.skillId}): ${when}${a.stale ? ', changed since (audit again)' : ''}; ` +
      `worst unsuppressed: ${a.worst ?? 'none'}`,
  );
  const order = [...a.findings].sort(
    (x, y) => severityRank(y.severity) - severityRank(x.severity) || x.file.localeCompare(y.file),
  );
  for (const f of order) printFinding(f);
  if (a.findings.length === 0 && a.auditedAt) printLine('  no findings');
}

/** The skills in scope whose unsuppressed findings reach `level`. */
async function failing(core: Core, ids: number[] | undefined, level: Severity): Promise<string[]> {
  if (ids === undefined) {
    const names: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await core['audit.list']({ minSeverity: level, limit: 500, offset });
      names.push(...page.items.map((s) => s.name));
      if (offset + 500 >= page.total) return names;
    }
  }
  const names: string[] = [];
  for (const id of ids) {
    const a = await core['audit.skill']({ skillId: id });
    if (a.worst && severityRank(a.worst) >= severityRank(level)) names.push(a.name);
  }
  return names;
}

async function printFlagged(core: Core, min: Severity): Promise<void> {
  const page = await core['audit.list']({ minSeverity: min, limit: 50 });
  if (page.total === 0) return printLine(`No skill has an unsuppressed finding at ${min} or above.`);
  printLine(
    `${page.total} skill${page.total === 1 ? '' : 's'} with unsuppressed findings at ${min} or above:`,
  );
  const width = Math.min(48, Math.max(5, ...page.items.map((s) => s.name.length)));
  for (const s of page.items) {
    const counts = [...severities]
      .reverse()
      .filter((v) => s.counts[v] > 0)
      .map((v) => `${s.counts[v]} ${v}`)
      .join(', ');
    const extra = [
      s.suppressed ? `${s.suppressed} suppressed` : '',
      s.toReview ? `${s.toReview} to review` : '',
    ]
      .filter(Boolean)
      .join(', ');
    printLine(`  ${s.name.padEnd(width)}  ${counts}${extra ? `  (${extra})` : ''}`);
  }
  if (page.total > page.items.length) printLine(`  … and ${page.total - page.items.length} more`);
  printLine('See one with `audit show NAME`; a report with `audit --format sarif|json|md --out FILE`.');
}

export function registerAuditCommands(program: Command): void {
  const audit = program
    .command('audit')
    .description(
      'audit skills for prompt injection, secrets leaving the machine, remote code, obfuscation and spec defects; ' +
        'exit 1 when an unsuppressed finding reaches --fail-on (default: the install gate, audit.gateSeverity)',
    )
    .option(
      '--skills <list>',
      'only these skills (names or #IDs, comma-separated); default every skill',
      listOption,
    )
    .option('--force', 'audit again even where nothing changed since the last audit')
    .option(
      '--profile <profile>',
      `spec rules to lint against: ${specProfiles.join(', ')}`,
      oneOf(specProfiles, 'A profile'),
    )
    .option(
      '--format <format>',
      'print a report: sarif, json or md',
      oneOf(['sarif', 'json', 'md'] as const, 'A format'),
    )
    .option('--out <file>', 'write the report to this file (with --format, or SARIF by its extension)')
    .option('--overwrite', 'replace --out if it exists')
    .option(
      '--min-severity <severity>',
      'leave lower findings out of the report and the list',
      severityOption,
    )
    .option(
      '--fail-on <severity>',
      'exit 1 when an unsuppressed finding is at this severity or above (off: never)',
      oneOf([...severities, 'off'] as const, 'A severity (or off)'),
    )
    .action(
      withCore(async (core, g, o: AuditOptions) => {
        const ids = o.skills ? await Promise.all(o.skills.map((s) => skillIdOf(core, s))) : undefined;
        const final = await followJob(
          core,
          await core['audit.run']({ skillIds: ids, force: o.force, profile: o.profile }),
          !!g.json || !!o.format,
        );
        requireDone(final);
        const format = o.format ?? (o.out ? formatOfFile(o.out) : undefined);
        if (format) {
          const r = await core['audit.report']({
            skillIds: ids,
            format,
            minSeverity: o.minSeverity,
            ...(o.out ? { path: o.out, overwrite: !!o.overwrite } : {}),
          });
          if (r.path) process.stderr.write(`wrote ${r.path}\n`);
          else process.stdout.write(r.text);
        } else if (g.json) {
          printJson({
            job: final.result,
            list: await core['audit.list']({ minSeverity: o.minSeverity ?? 'low' }),
          });
        } else if (ids) {
          for (const id of ids) printSkillAudit(await core['audit.skill']({ skillId: id }));
        } else await printFlagged(core, o.minSeverity ?? 'low');
        const level = o.failOn ?? (await core['settings.get']({})).audit.gateSeverity;
        if (level === 'off') return;
        const failed = await failing(core, ids, level);
        if (failed.length === 0) return;
        process.stderr.write(
          `audit: ${failed.length} skill${failed.length === 1 ? '' : 's'} with unsuppressed findings at ${level} or above: ` +
            `${failed.slice(0, 10).join(', ')}${failed.length > 10 ? ', …' : ''}\n`,
        );
        process.exitCode = 1;
      }),
    );

  audit
    .command('show <skill>')
    .description("one skill's findings with file, line, excerpt and why, and their suppressions")
    .action(
      withCore(async (core, g, skill: string) => {
        const a = await core['audit.skill']({ skillId: await skillIdOf(core, skill) });
        if (g.json) return printJson(a);
        printSkillAudit(a);
      }),
    );

  audit
    .command('suppress <findingId>')
    .description(
      'mark a finding a false positive, with a reason; it holds while the file is unchanged ' +
        '(--scope skill-rule: this rule for this skill while the skill is unchanged; rule: this rule everywhere)',
    )
    .requiredOption('--reason <text>', 'why it is not a problem (kept with the suppression)')
    .option(
      '--scope <scope>',
      'finding, skill-rule or rule',
      oneOf(['finding', 'skill-rule', 'rule'] as const, 'A scope'),
      'finding',
    )
    .action(
      withCore(async (core, g, findingId: string, o: { reason: string; scope: SuppressionScope }) => {
        const s = await core['audit.suppress']({
          findingId: idOption(findingId),
          scope: o.scope,
          reason: o.reason,
        });
        if (g.json) return printJson(s);
        printLine(`suppression #${s.id} (${s.scope} ${s.ruleId}) kept: ${s.reason}`);
      }),
    );

  audit
    .command('unsuppress <suppressionId>')
    .description('remove a suppression; its findings count again')
    .action(
      withCore(async (core, g, id: string) => {
        const r = await core['audit.unsuppress']({ suppressionId: idOption(id) });
        if (g.json) return printJson(r);
        if (!r.removed) throw new Error(`No suppression #${id}`);
        printLine(`suppression #${id} removed`);
      }),
    );

  audit
    .command('review')
    .description(
      'ask the configured LLM for a second opinion (confirm / likely benign, with a reason) on each unsuppressed high ' +
        'or critical finding; it suppresses nothing',
    )
    .option('--skills <list>', 'only these skills (names or #IDs, comma-separated)', listOption)
    .option('--force', 'ask again where an answer is stored')
    .action(
      withCore(async (core, g, o: { skills?: string[]; force?: boolean }) => {
        const ids = o.skills ? await Promise.all(o.skills.map((s) => skillIdOf(core, s))) : undefined;
        const final = await followJob(
          core,
          await core['audit.review']({ skillIds: ids, force: o.force }),
          !!g.json,
        );
        if (g.json) return printJson(final.result ?? null);
        requireDone(final);
        const r = final.result as AuditReviewResult;
        printLine(
          `second opinions on ${r.reviewed} finding${r.reviewed === 1 ? '' : 's'}: ${r.confirmed} confirmed, ` +
            `${r.likelyBenign} likely benign, ${r.failed} without an answer; see them with audit show NAME`,
        );
      }),
    );

  audit
    .command('rules')
    .description('every audit rule: id, category, severity, and why it matters')
    .action(
      withCore(async (core, g) => {
        const rules = await core['audit.rules']({});
        if (g.json) return printJson(rules);
        for (const r of rules)
          printLine(`${r.id.padEnd(34)} ${r.severity.padEnd(8)} ${r.category}: ${r.why}`);
      }),
    );
}

function formatOfFile(file: string): AuditReportFormat {
  if (/\.md$/i.test(file)) return 'md';
  if (/\.json$/i.test(file)) return 'json';
  return 'sarif';
}
