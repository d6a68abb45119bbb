// CLI: select (one variant or several side by side), replay with what-if edits, runs, export.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import { randomUUID } from 'node:crypto';
import type { SelectionPreset, SelectionResult, Variant } from '../../shared/api';
import { selectionPresets, variants } from '../../shared/api';
import { denseByWordsNote, denseRanksByWords } from '../../shared/dense-words';
import type { SelectionTrace } from '../../shared/trace';
import { parseEditArg } from '../../core/select/edits';
import { renderTrace } from '../../core/select/render-trace';
import { followSelection, printEstimate } from '../follow-selection';
import { printJson, printLine } from '../output';
import { countOption, idOption } from '../number-options';
import { withCore } from '../run-command';

function readParse(file: string): { subtasks: string[]; states: string[] } {
  const value = JSON.parse(readFileSync(file, 'utf8')) as { subtasks?: unknown; states?: unknown };
  if (!Array.isArray(value.subtasks) || !Array.isArray(value.states)) {
    throw new Error(`${file}: expected {"subtasks": [...], "states": [...]}`);
  }
  return { subtasks: value.subtasks.map(String), states: value.states.map(String) };
}

// Callers pass `opts.verbose || g.verbose`: the program's own --verbose takes the flag wherever it is typed, so the
// command's option alone is never set.
function printResult(r: SelectionResult, verbose: boolean): void {
  printLine(renderTrace(r.trace, { verbose, why: r.why }));
  // A variant left out of a comparison (llm with no endpoint) is not stored: say so rather than "run #-1".
  const run = r.runId >= 0 ? `run #${r.runId}` : 'not stored';
  printLine(`${run} (${r.variant}): ${r.answer.map((a) => a.name).join(' -> ') || '(empty)'}`);
}

export function registerSelectCommands(program: Command): void {
  program
    .command('select <task...>')
    .description('select skills for a task and print the answer with a readable trace')
    .addOption(new Option('--variant <variant>', 'method').choices([...variants]).default('full'))
    .option('--compare <variants>', 'comma-separated variants to run side by side on the same candidates')
    .option('--k <k>', 'k for the ranked variants', countOption)
    .option('--recall-k <K>', 'candidates from the recall', countOption)
    .option('--parse <file>', 'a hand-typed task parse: {"subtasks": [...], "states": [...]}')
    .addOption(
      new Option(
        '--preset <preset>',
        'which engine scores r: exact, fast, mixed, offline (default: Settings)',
      ).choices([...selectionPresets]),
    )
    .option('--estimate', 'print the estimated cost and stop')
    .option('--verbose', 'every score in the trace')
    .action(
      withCore(
        async (
          core,
          g,
          words: string[],
          opts: {
            variant: Variant;
            compare?: string;
            k?: number;
            recallK?: number;
            parse?: string;
            preset?: SelectionPreset;
            estimate?: boolean;
            verbose?: boolean;
          },
        ) => {
          const base = {
            task: words.join(' '),
            k: opts.k,
            recallK: opts.recallK,
            parse: opts.parse ? readParse(opts.parse) : undefined,
            preset: opts.preset,
          };
          const chosen = opts.compare
            ? opts.compare.split(',').map((v) => v.trim() as Variant)
            : [opts.variant];
          const estimate = await core['select.estimate']({ ...base, variants: chosen });
          if (opts.estimate) {
            if (g.json) return printJson(estimate);
            return printEstimate(estimate, (line) => printLine(line));
          }
          if (!g.json) printEstimate(estimate, (line) => process.stderr.write(line + '\n'), true);
          const requestId = randomUUID();
          const results = await followSelection(core, requestId, !!g.json, () =>
            opts.compare
              ? core['select.compare']({ ...base, variants: chosen, requestId })
              : core['select.run']({ ...base, variant: opts.variant, requestId }).then((r) => [r]),
          );
          if (g.json) return printJson(results.length === 1 ? results[0] : results);
          for (const r of results) printResult(r, !!opts.verbose || !!g.verbose);
          if (results.length > 1) {
            printLine('\nSide by side:');
            for (const r of results)
              printLine(
                `  ${r.variant.padEnd(9)} ${r.answer.map((a) => a.name).join(', ') || `(none: ${r.trace.reason ?? 'no answer'})`}${denseRanksByWords(r.trace) ? `  (${denseByWordsNote})` : ''}`,
              );
          }
        },
      ),
    );

  program
    .command('replay <traceOrRun>')
    .description('recompute a stored run (#id) or a TRACE.json after edits, scoring only what changed')
    .option(
      '--edit <edit>',
      'state:I=TEXT | subtask:I=TEXT | pre:SKILL=TEXT|None | post:SKILL=TEXT | rho:SKILL=R | fit:SKILL@TAU=R | align:SKILL:I:pre|post=R (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--verbose', 'every score in the trace')
    .action(
      withCore(async (core, g, ref: string, opts: { edit: string[]; verbose?: boolean }) => {
        const runId = /^#?\d+$/.test(ref) ? Number(ref.replace('#', '')) : undefined;
        // The trace schema (zod) loads here, not with the CLI: `--help` and the other commands start without it.
        const { parseTraceJson } = await import('../../core/select/trace-schema');
        const trace: SelectionTrace =
          runId !== undefined
            ? (await core['select.get']({ runId })).trace
            : parseTraceJson(readFileSync(ref, 'utf8'));
        const exact = opts.edit.map((e) => parseEditArg(e, trace));
        const r = await core['select.replay']({
          ...(runId !== undefined ? { runId } : { trace }),
          edits: { exact },
        });
        if (g.json) return printJson(r);
        printResult(r, !!opts.verbose || !!g.verbose);
        const before = trace.answer.map((a) => a.name).join(', ');
        const after = r.answer.map((a) => a.name).join(', ');
        printLine(before === after ? 'answer unchanged' : `answer changed: ${before} -> ${after}`);
        printLine(`scored ${r.trace.execution.pairsScored} pairs, reused ${r.trace.execution.pairsReused}`);
      }),
    );

  program
    .command('runs')
    .description('stored selection runs')
    .option('--limit <n>', 'rows', countOption, 20)
    .option('--no-evaluations', 'leave out the runs evaluations stored (one per task and variant)')
    .action(
      withCore(async (core, g, opts: { limit: number; evaluations: boolean }) => {
        const runs = await core['select.runs']({ limit: opts.limit, evaluations: opts.evaluations });
        if (g.json) return printJson(runs);
        for (const r of runs)
          printLine(`#${r.runId} ${r.createdAt} ${r.variant.padEnd(9)} ${r.task}  -> ${r.answer.join(', ')}`);
      }),
    );

  program
    .command('export <destination>')
    .description('write skill packages (by id or name, or a run’s answer) as a folder, zip or JSON')
    .addOption(new Option('--format <format>', 'output').choices(['folder', 'zip', 'json']).default('folder'))
    .option('--skills <refs>', 'comma-separated skill ids or names')
    .option('--run <id>', 'the answer of this selection run', idOption)
    .action(
      withCore(
        async (
          core,
          g,
          destination: string,
          opts: { format: 'folder' | 'zip' | 'json'; skills?: string; run?: number },
        ) => {
          const ids: number[] = [];
          if (opts.run !== undefined)
            ids.push(...(await core['select.get']({ runId: opts.run })).answer.map((a) => a.skillId));
          for (const ref of opts.skills
            ?.split(',')
            .map((s) => s.trim())
            .filter(Boolean) ?? []) {
            ids.push(/^\d+$/.test(ref) ? Number(ref) : (await core['library.get']({ name: ref })).id);
          }
          if (ids.length === 0) throw new Error('Name the skills with --skills or --run');
          const res = await core['export.skills']({ skillIds: ids, format: opts.format, destination });
          if (g.json) return printJson(res);
          printLine(`wrote ${res.written.length} files to ${res.destination}`);
          for (const m of res.missing) printLine(`  missing ${m.name}: ${m.reason}`);
        },
      ),
    );
}
