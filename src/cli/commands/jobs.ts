// CLI: jobs list, show, cancel, resume.
import type { Command } from 'commander';
import { followJob, printJobJson, printJson, printLine, requireDone } from '../output';
import { withCore } from '../run-command';
import { jobSummary } from '../../shared/job-words';

export function registerJobCommands(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('long-running work: imports, parsing, indexing, evaluation');
  jobs
    .command('list', { isDefault: true })
    .description('recent jobs with their status and progress')
    .action(
      withCore(async (core, g) => {
        const list = await core['jobs.list']({});
        if (g.json) return printJson(list);
        for (const j of list) printLine(`${j.id}  ${j.createdAt}  ${jobSummary(j)}`);
        if (list.length === 0) printLine('no jobs');
      }),
    );
  jobs
    .command('show <id>')
    .description('one job: its progress, result or error')
    .action(
      withCore(async (core, _g, id: string) => {
        printJson(await core['jobs.get']({ id }));
      }),
    );
  jobs
    .command('resume <id>')
    .description('continue an interrupted, failed or cancelled job')
    .action(
      withCore(async (core, g, id: string) => {
        const final = await followJob(core, await core['jobs.resume']({ id }), !!g.json);
        if (g.json) return printJobJson(final, final);
        requireDone(final);
      }),
    );
}
