// CLI `demo` (npm start): the main job on the bundled sample library, end to end, then the HTTP host.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { EvalReport, ImportReport, LabelSetInfo } from '../../shared/api';
import type { Core } from '../../core';
import { repoRoot, resourcesDir } from '../paths';
import { followJob, printLine } from '../output';
import { portOption } from '../number-options';
import { withCore } from '../run-command';
import { countOf } from '../../shared/import-hints';
import { serveUntilStopped } from './serve';

async function sampleLabelSet(core: Core): Promise<LabelSetInfo> {
  const existing = (await core['labels.list']({})).find((s) => s.name === 'sample-tasks');
  return (
    existing ??
    core['labels.import']({ path: path.join(resourcesDir, 'sample-tasks.jsonl'), name: 'sample-tasks' })
  );
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('import the sample library, run a selection and the sample evaluation, then serve')
    .option('--no-serve', 'stop after the evaluation')
    .option('--port <port>', 'port for the HTTP host', portOption, 0)
    .action(
      withCore(async (core, _g, opts: { serve: boolean; port: number }) => {
        const data = core.context.paths.dataDir;
        const shown = data.startsWith(repoRoot + path.sep) ? path.relative(repoRoot, data) : data;
        printLine(`Data folder: ${data}`);
        const job = await core['library.import']({
          path: path.join(resourcesDir, 'sample-library'),
          label: 'sample-library',
        });
        const imported = await followJob(core, job, false);
        const report = imported.result as ImportReport;
        printLine(
          `Sample library: ${countOf(report, 'added')} added, ${countOf(report, 'updated')} updated, ${countOf(report, 'unchanged')} unchanged`,
        );

        const states = await core['states.import']({
          path: path.join(resourcesDir, 'sample-states.jsonl'),
          verify: true,
        });
        printLine(
          `Reviewed states: ${states.applied} applied${states.unchanged.length ? `, ${states.unchanged.length} unchanged` : ''}${states.keptHumanEdits.length ? `, ${states.keptHumanEdits.length} kept (edited here)` : ''}`,
        );

        const hits = await core['library.search']({ query: 'heat food microwave', limit: 3 });
        printLine(
          `\nSearch "heat food microwave" (${hits.engine}): ${hits.hits.map((h) => h.skill.name).join(', ')}`,
        );

        // The first sample task, with its hand-typed parse, so the demo needs no LLM.
        const [first] = readFileSync(path.join(resourcesDir, 'sample-tasks.jsonl'), 'utf8').split('\n');
        const sample = JSON.parse(first!) as {
          task: string;
          parse: { subtasks: string[]; states: string[] };
        };
        const selection = await core['select.run']({
          task: sample.task,
          parse: sample.parse,
          variant: 'full',
        });
        const stages = selection.trace.stages.length;
        printLine(
          `\nSelection for "${sample.task}" (full, ${stages} stage${stages === 1 ? '' : 's'}): ${selection.answer.map((a) => a.name).join(' -> ') || '(none)'}`,
        );
        printLine(`  see why: npm run cli -- --data ${shown} replay ${selection.runId} --verbose`);

        const set = await sampleLabelSet(core);
        const evalJob = await followJob(
          core,
          await core['eval.run']({
            setId: set.id,
            variants: ['full', 'no-graph', 'no-split', 'no-parse', 'dense'],
          }),
          false,
        );
        if (evalJob.status !== 'done') throw evalJob.error;
        const run = evalJob.result as { runId: number };
        const evalReport: EvalReport = await core['eval.show']({ runId: run.runId });
        printLine(
          `\nEvaluation on ${set.name} (${set.itemCount} tasks, ${evalReport.engines.recall} + ${evalReport.engines.crossEncoder}), recall@${evalReport.recallK} ${evalReport.recallAtK.toFixed(2)}:`,
        );
        printLine('variant    k  Hit@1 cover precision recall  F1    exact  size');
        for (const m of evalReport.summary) {
          printLine(
            `${m.variant.padEnd(10)} ${String(m.k ?? '-').padEnd(2)} ${(m.hitAt1 ?? 0).toFixed(3).padEnd(5)} ${m.stageCoverage.toFixed(3).padEnd(5)} ${m.precision.toFixed(3).padEnd(9)} ${m.recall.toFixed(3).padEnd(7)} ${m.f1.toFixed(3).padEnd(5)} ${m.exactMatch.toFixed(3).padEnd(6)} ${m.meanAnswerSize.toFixed(2)}`,
          );
        }
        printLine(
          'Hit@1: the first skill answered is gold or in a gold group; cover: the share of a task’s stages answered; full answers one skill per stage it finds.',
        );
        printLine(`\nCLI on this library: npm run cli -- --data ${shown} <command>`);
        if (opts.serve) await serveUntilStopped(core, opts.port);
      }),
    );
}
