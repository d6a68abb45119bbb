// CLI: llm test/key, parse skills/task, states show/edit/verify/history/revert (import/export: states-file.ts).
import type { Command } from 'commander';
import { Option } from 'commander';
import type { SkillStates } from '../../shared/api';
import { endpointHint } from '../../shared/endpoint-hints';
import { followJob, printJobJson, printJson, printJsonReport, printLine, requireDone } from '../output';
import { idListOption, idOption } from '../number-options';
import { wholeNumberArgument, withCore } from '../run-command';
import { registerStatesFileCommands } from './states-file';
import { skillIdOf } from '../skill-ref';

function printStates(s: SkillStates): void {
  printLine(
    `skill ${s.skillId}: ${s.status}${s.outdated ? ' (skill changed since)' : ''}${s.model ? ` by ${s.model} (${s.promptVersion})` : ''}`,
  );
  // "None" is a parsed answer (the skill needs nothing); an unparsed skill has no states yet.
  const unparsed = s.status === 'unparsed';
  printLine(`  precondition: ${unparsed ? '(not parsed yet)' : (s.precondition ?? 'None')}`);
  printLine(`  completion:   ${unparsed ? '(not parsed yet)' : (s.completion ?? '-')}`);
  if (s.error && !s.failedAttempt) printLine(`  error: ${s.error}`);
  const attempt = s.failedAttempt;
  if (attempt) {
    const hint = endpointHint(attempt.problem);
    printLine(`  last parse attempt failed (${attempt.at}): ${attempt.error}${hint ? ` ${hint}` : ''}`);
    if (attempt.rawAnswer !== null) printLine(`  refused answer: ${JSON.stringify(attempt.rawAnswer)}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export function registerLlmCommands(program: Command): void {
  const llm = program
    .command('llm')
    .description('the OpenAI-compatible endpoint (set it with `settings set llm.baseURL=... llm.model=...`)');
  llm
    .command('test')
    .description('check the endpoint, the key and the model')
    .action(
      withCore(async (core, g) => {
        const report = await core['llm.test']({});
        if (g.json) return printJsonReport(report);
        printLine(
          `${report.ok ? 'ok' : 'FAILED'}: ${report.message}${report.latencyMs !== undefined ? ` (${report.latencyMs} ms)` : ''}`,
        );
        if (!report.ok) process.exitCode = 1;
      }),
    );
  llm
    .command('key')
    .description(
      'store the API key from standard input in a key file only you can read (or --clear); SKILL_CURATOR_API_KEY wins when set',
    )
    .option('--clear', 'remove the stored key')
    .action(
      withCore(async (core, _g, opts: { clear?: boolean }) => {
        const key = opts.clear ? null : await readStdin();
        if (key === '') throw new Error('No key on standard input');
        await core['llm.setApiKey']({ apiKey: key });
        printLine(key ? 'key stored' : 'key removed');
      }),
    );

  const parse = program.command('parse').description('LLM parsing of skills and tasks');
  parse
    .command('skills')
    .description('parse skills into precondition and completion states (a resumable job)')
    .addOption(new Option('--only <which>', 'which skills').choices(['unparsed', 'failed', 'all']))
    .option('--ids <ids>', 'comma-separated skill ids', idListOption)
    .option('--force', 'send again even when a cached parse exists (edited/verified states are kept)')
    .option(
      '--replace',
      'replace the edited/verified states of the skills named in --ids (old values go to history)',
    )
    .action(
      withCore(
        async (
          core,
          g,
          opts: { only?: 'unparsed' | 'failed' | 'all'; ids?: number[]; force?: boolean; replace?: boolean },
        ) => {
          const final = await followJob(
            core,
            await core['parse.skills']({
              only: opts.only,
              ids: opts.ids,
              force: opts.force,
              ...(opts.replace ? { replace: true } : {}),
            }),
            !!g.json,
          );
          if (g.json) return printJobJson(final, final);
          requireDone(final);
          printLine(JSON.stringify(final.result ?? final.progress));
        },
      ),
    );
  parse
    .command('task <task...>')
    .description('decompose a task into sub-tasks and states')
    .option('--source <id>', 'use this source’s environment note', idOption)
    .option('--force', 'ask again even if cached')
    .action(
      withCore(async (core, g, words: string[], opts: { source?: number; force?: boolean }) => {
        const p = await core['parse.task']({
          task: words.join(' '),
          sourceId: opts.source,
          force: opts.force,
        });
        if (g.json) return printJson(p);
        printLine(`${p.source}${p.cached ? ' (cached)' : ''}${p.model ? ` ${p.model}` : ''}`);
        p.subtasks.forEach((t, i) => printLine(`Subtask ${i + 1}: ${t}`));
        p.states.forEach((s, i) => printLine(`State ${i + 1}: ${s}`));
      }),
    );

  const states = program.command('states').description('review parsed states');
  states
    .command('show <skill>')
    .description("a skill's precondition and completion states, their status and any failed attempt")
    .action(
      withCore(async (core, g, ref: string) => {
        const s = await core['states.get']({ skillId: await skillIdOf(core, ref) });
        if (g.json) return printJson(s);
        printStates(s);
      }),
    );
  states
    .command('edit <skill>')
    .description('set the states by hand (kept from then on: a re-parse never overwrites them silently)')
    .option('--precondition <text>', 'new precondition ("None" for none)')
    .option('--completion <text>', 'new completion state')
    .action(
      withCore(async (core, g, ref: string, opts: { precondition?: string; completion?: string }) => {
        const s = await core['states.edit']({
          skillId: await skillIdOf(core, ref),
          ...(opts.precondition !== undefined
            ? { precondition: opts.precondition === 'None' ? null : opts.precondition }
            : {}),
          ...(opts.completion !== undefined ? { completion: opts.completion } : {}),
        });
        if (g.json) return printJson(s);
        printStates(s);
      }),
    );
  states
    .command('verify <skill>')
    .description('mark the states reviewed and correct')
    .option(
      '--acknowledge-audit',
      'verify even though the audit found something high or critical in the skill (refused without it)',
    )
    .action(
      withCore(async (core, g, ref: string, opts: { acknowledgeAudit?: boolean }) => {
        const s = await core['states.verify']({
          skillId: await skillIdOf(core, ref),
          ...(opts.acknowledgeAudit ? { acknowledgeAudit: true } : {}),
        });
        if (g.json) return printJson(s);
        printStates(s);
      }),
    );
  states
    .command('history <skill>')
    .description('every change to the states, each with the #id that revert takes')
    .action(
      withCore(async (core, g, ref: string) => {
        const h = await core['states.history']({ skillId: await skillIdOf(core, ref) });
        if (g.json) return printJson(h);
        for (const e of h)
          printLine(
            `#${e.id} ${e.at} ${e.action}: ${e.before?.status ?? '-'} -> ${e.after?.status ?? '-'}  ${JSON.stringify(e.after?.precondition ?? null)} / ${JSON.stringify(e.after?.completion ?? null)}`,
          );
      }),
    );
  registerStatesFileCommands(states);
  states
    .command('revert <skill> <historyId>')
    .description('put back the states of a history entry')
    .action(
      withCore(async (core, g, ref: string, historyId: string) => {
        const s = await core['states.revert']({
          skillId: await skillIdOf(core, ref),
          historyId: wholeNumberArgument(historyId),
        });
        if (g.json) return printJson(s);
        printStates(s);
      }),
    );
}
