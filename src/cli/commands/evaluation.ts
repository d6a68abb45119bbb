// CLI: label sets and evaluation runs.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Variant } from '../../shared/api';
import { followJob, printJson, printLine } from '../output';
import { intOption, withCore } from '../run-command';

const pct = (x: number | undefined) => (x === undefined ? '  -  ' : (100 * x).toFixed(1).padStart(5));

export function registerEvaluationCommands(program: Command): void {
  const labels = program
    .command('labels')
    .description('label sets: tasks with the skills a good selection returns');
  labels
    .command('import <file>')
    .option('--name <name>', 'set name (default: file name)')
    .action(
      withCore(async (core, g, file: string, opts: { name?: string }) => {
        const set = await core['labels.import']({ path: file, name: opts.name });
        if (g.json) return printJson(set);
        printLine(`label set #${set.id} ${set.name}: ${set.itemCount} tasks`);
      }),
    );
  labels.command('list', { isDefault: true }).action(
    withCore(async (core, g) => {
      const sets = await core['labels.list']({});
      if (g.json) return printJson(sets);
      for (const s of sets) printLine(`#${s.id} ${s.name} (${s.itemCount} tasks)`);
      if (sets.length === 0)
        printLine('no label sets (import one: labels import resources/sample-tasks.jsonl)');
    }),
  );

  const evaluation = program.command('eval').description('compare variants on a label set');
  evaluation
    .command('run <set>')
    .description('evaluate variants on a label set (id or name); a resumable job')
    .option('--variants <list>', 'comma-separated', 'full,no-graph,no-split,no-parse,dense')
    .option('--k <list>', 'k values for the ranked variants', '1,2')
    .option('--recall-k <K>', 'candidates from the recall', intOption)
    .action(
      withCore(async (core, g, setRef: string, opts: { variants: string; k: string; recallK?: number }) => {
        const set = /^\d+$/.test(setRef)
          ? { id: Number(setRef) }
          : (await core['labels.list']({})).find((s) => s.name === setRef);
        if (!set) throw new Error(`No label set named ${setRef}`);
        const job = await core['eval.run']({
          setId: set.id,
          variants: opts.variants.split(',').map((v) => v.trim() as Variant),
          k: opts.k.split(',').map((k) => intOption(k.trim())),
          recallK: opts.recallK,
        });
        const final = await followJob(core, job, !!g.json);
        if (final.status !== 'done') throw final.error ?? new Error(`evaluation ${final.status}`);
        const { runId } = final.result as { runId: number };
        await showRun(core, runId, !!g.json);
      }),
    );
  evaluation.command('show <run>').action(
    withCore(async (core, g, run: string) => {
      await showRun(core, intOption(run), !!g.json);
    }),
  );
  evaluation.command('list').action(
    withCore(async (core, g) => {
      const runs = await core['eval.list']({});
      if (g.json) return printJson(runs);
      for (const r of runs) printLine(`#${r.runId} ${r.createdAt} ${r.setName} ${r.status}`);
    }),
  );
  evaluation
    .command('export <run> <file>')
    .description('write the report as .md or .json (by extension)')
    .action(
      withCore(async (core, _g, run: string, file: string) => {
        const { content } = await core['eval.export']({
          runId: intOption(run),
          format: file.endsWith('.md') ? 'markdown' : 'json',
        });
        writeFileSync(file, content);
        printLine(`wrote ${file}`);
      }),
    );
}

async function showRun(
  core: Parameters<Parameters<typeof withCore>[0]>[0],
  runId: number,
  json: boolean,
): Promise<void> {
  const r = await core['eval.show']({ runId });
  if (json) return printJson(r);
  printLine(
    `eval #${r.runId} on ${r.setName}: ${r.status}; recall ${r.engines.recall}, cross-encoder ${r.engines.crossEncoder ?? '-'}`,
  );
  printLine(`Recall@${r.recallK} of the recall stage: ${pct(r.recallAtK)} %`);
  printLine('variant      P      R      F1     EM    Hit@1  Cover  size  pairs/task');
  for (const m of r.summary) {
    const name = m.k ? `${m.variant}@${m.k}` : m.variant;
    printLine(
      `${name.padEnd(11)} ${pct(m.precision)}  ${pct(m.recall)}  ${pct(m.f1)}  ${pct(m.exactMatch)}  ${pct(m.hitAt1)}  ${pct(m.stageCoverage)}  ${m.meanAnswerSize.toFixed(2)}  ${m.crossEncoderPairs.toFixed(1)}`,
    );
  }
  if (r.differences.length)
    printLine(`${r.differences.length} tasks where variants disagree (eval export ${r.runId} report.md)`);
}
