// CLI: label sets and evaluation runs.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import type {
  CuratorApi,
  EvalComparison,
  EvalReport,
  LabelFileFormat,
  SelectionPreset,
  Variant,
} from '../../shared/api';
import { labelFileFormats, selectionPresets } from '../../shared/api';
import type { JobInfo } from '../../shared/jobs';
import { CuratorError } from '../../shared/errors';
import { comparisonToMarkdown } from '../../core/eval/comparison-report';
import { followJob, printJson, printJsonText, printLine } from '../output';
import { missingGoldWords } from '../../shared/gold-coverage-words';
import { countListOption, countOption, marginOption } from '../number-options';
import { wholeNumberArgument, withCore } from '../run-command';
import { resourcesDir } from '../paths';
import { withOverwriteFlag } from '../overwrite-hint';
import { labelFormatWords, labelImportWords } from '../../shared/label-import-words';

const pct = (x: number | undefined) => (x === undefined ? '  -  ' : (100 * x).toFixed(1).padStart(5));

export function registerEvaluationCommands(program: Command): void {
  const labels = program
    .command('labels')
    .description('label sets: tasks with the skills a good selection returns');
  labels
    .command('import <file>')
    .description(
      "import a label set: a JSONL of tasks with their gold skills (the bundled one: resources/sample-tasks.jsonl), or skill-creator's evals/evals.json or trigger queries (should_trigger) for one skill",
    )
    .option('--name <name>', 'set name (default: file name; a skill-creator file gets its skill in front)')
    .option(
      '--skill <name>',
      'the skill a skill-creator file is for, where it has no skill_name and is not at <skill>/evals/',
    )
    .action(
      withCore(async (core, g, file: string, opts: { name?: string; skill?: string }) => {
        const set = await core['labels.import']({ path: file, name: opts.name, skill: opts.skill });
        if (g.json) return printJson(set);
        printLine(`label set #${set.id} ${set.name}: ${set.itemCount} tasks`);
        if (set.existed) printLine(labelImportWords(set));
        else if (set.format !== 'jsonl') printLine(labelFormatWords(set));
        await printMissingGold(core, set.id);
      }),
    );
  labels
    .command('export <set> [file]')
    .description(
      "write a label set (id or name) as JSONL, or for one skill as skill-creator's evals.json or trigger queries (to stdout without a file)",
    )
    .addOption(
      new Option('--format <format>', 'jsonl, evals or triggers (default: by the file name)').choices([
        ...labelFileFormats,
      ]),
    )
    .option('--skill <name>', 'with evals or triggers: the skill to write for (default: the set’s only one)')
    .option('--overwrite', 'replace the file if it exists')
    .action(
      withCore(
        async (
          core,
          g,
          setRef: string,
          file: string | undefined,
          opts: { format?: LabelFileFormat; skill?: string; overwrite?: boolean },
        ) => {
          const out = await core['labels.export']({
            id: await setIdOf(core, setRef),
            format: opts.format ?? formatOfFile(file),
            skill: opts.skill,
            ...(file ? { path: path.resolve(file), overwrite: !!opts.overwrite } : {}),
          }).catch((error: unknown) => {
            throw withOverwriteFlag(error);
          });
          if (g.json) return printJson(file ? { ...out, content: undefined } : out);
          if (!file) return printJsonText(out.content);
          printLine(
            `wrote ${out.path} (${out.items} ${out.items === 1 ? 'query' : 'queries'}${out.skill ? ` for ${out.skill}` : ''})`,
          );
        },
      ),
    );
  labels
    .command('list', { isDefault: true })
    .description('label sets and their task counts')
    .action(
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
    .option('--k <list>', 'k values for the ranked variants (default: 1,2)', countListOption)
    .option('--recall-k <K>', 'candidates from the recall', countOption)
    .addOption(
      new Option(
        '--preset <preset>',
        'which engine scores r: exact, fast, mixed, offline (default: Settings)',
      ).choices([...selectionPresets]),
    )
    .option('--compare-last', 'then compare with the last finished run of the same set')
    .option('--out <file>', 'with --compare-last: write the comparison (.md or .json) there')
    .action(
      withCore(
        async (
          core,
          g,
          setRef: string,
          opts: {
            variants: string;
            k?: number[];
            recallK?: number;
            preset?: SelectionPreset;
            compareLast?: boolean;
            out?: string;
          },
        ) => {
          const job = await core['eval.run']({
            setId: await setIdOf(core, setRef),
            variants: opts.variants.split(',').map((v) => v.trim() as Variant),
            k: opts.k ?? [1, 2],
            recallK: opts.recallK,
            preset: opts.preset,
          });
          await finishRun(core, job, !!g.json, opts.compareLast ? { out: opts.out } : null);
        },
      ),
    );
  evaluation
    .command('rerun <set>')
    .description('repeat the last run of a label set on the library as it is now, and compare the two')
    .option('--out <file>', 'write the comparison (.md or .json) there')
    .action(
      withCore(async (core, g, setRef: string, opts: { out?: string }) => {
        const job = await core['eval.rerun']({ setId: await setIdOf(core, setRef) });
        await finishRun(core, job, !!g.json, { out: opts.out });
      }),
    );
  evaluation
    .command('compare <run> [base]')
    .description('compare a run with an earlier run of the same set (default: the last one before it)')
    .option('--out <file>', 'write the comparison (.md or .json) there')
    .action(
      withCore(async (core, g, run: string, base: string | undefined, opts: { out?: string }) => {
        const c = await core['eval.compare']({
          runId: wholeNumberArgument(run),
          baseRunId: base === undefined ? undefined : wholeNumberArgument(base),
        });
        printComparison(c, !!g.json, opts.out);
      }),
    );
  evaluation
    .command('confusable <run>')
    .description('skill pairs the selection confuses on the labelled tasks, most tasks first')
    .option('--phi-margin <x>', 'φ margin between a stage winner and its runner-up', marginOption)
    .option('--rho-margin <x>', 'ρ margin between ranked neighbours', marginOption)
    .action(
      withCore(async (core, g, run: string, opts: { phiMargin?: number; rhoMargin?: number }) => {
        const r = await core['eval.confusability']({ runId: wholeNumberArgument(run), ...opts });
        if (g.json) return printJson(r);
        printLine(`confusable pairs in run ${r.runId} (φ margin ${r.phiMargin}, ρ margin ${r.rhoMargin}):`);
        for (const p of r.pairs)
          printLine(
            `${String(p.tasks.length).padStart(3)} tasks  ${p.a.name} ~ ${p.b.name}  [${p.kinds.join(',')}]${p.minMargin === null ? '' : ` min Δ ${p.minMargin.toFixed(3)}`}${p.goldInvolved ? ' (gold)' : ''}`,
          );
        if (r.pairs.length === 0) printLine('none');
      }),
    );
  evaluation
    .command('show <run>')
    .description("an evaluation run's metrics per variant")
    .action(
      withCore(async (core, g, run: string) => {
        await showRun(core, wholeNumberArgument(run), !!g.json);
      }),
    );
  evaluation
    .command('list')
    .description('evaluation runs, newest first')
    .action(
      withCore(async (core, g) => {
        const runs = await core['eval.list']({});
        if (g.json) return printJson(runs);
        for (const r of runs) printLine(`#${r.runId} ${r.createdAt} ${r.setName} ${r.status}`);
      }),
    );
  evaluation
    .command('export <run> <file>')
    .description('write the report as .md, .csv or .json (by extension)')
    .option('--overwrite', 'replace the file if it exists')
    .action(
      withCore(async (core, _g, run: string, file: string, opts: { overwrite?: boolean }) => {
        const { path: written } = await core['eval.export']({
          runId: wholeNumberArgument(run),
          format: file.endsWith('.md') ? 'markdown' : file.endsWith('.csv') ? 'csv' : 'json',
          path: path.resolve(file),
          overwrite: !!opts.overwrite,
        }).catch((error: unknown) => {
          throw withOverwriteFlag(error);
        });
        printLine(`wrote ${written}`);
      }),
    );
}

type Core = Parameters<Parameters<typeof withCore>[0]>[0];

/** evals.json is skill-creator's evals, another .json needs --format; anything else is JSONL. */
function formatOfFile(file: string | undefined): LabelFileFormat {
  if (file && path.basename(file).toLowerCase() === 'evals.json') return 'evals';
  if (file && /\.json$/i.test(file))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      'Say which skill-creator file to write: --format evals (evals.json) or --format triggers (trigger queries)',
    );
  return 'jsonl';
}

async function setIdOf(core: Core, setRef: string): Promise<number> {
  if (/^\d+$/.test(setRef)) return Number(setRef);
  const sets = await core['labels.list']({});
  const set = sets.find((s) => s.name === setRef);
  if (set) return set.id;
  // A newcomer often passes the tasks file itself: say how to make it a label set instead of a bare "not found".
  const known = sets.length
    ? ` Label sets: ${sets.map((s) => s.name).join(', ')}.`
    : ' There are no label sets yet.';
  const hint =
    existsSync(setRef) || /\.jsonl?$/i.test(setRef)
      ? ` To evaluate on a tasks file, import it first: labels import ${setRef}, then eval run <its name>.`
      : ` Import one with: labels import FILE.jsonl${sets.length ? '' : ` (the bundled sample tasks: labels import ${path.join(resourcesDir, 'sample-tasks.jsonl')})`}.`;
  throw new CuratorError('NOT_FOUND', `No label set named ${setRef}.${known}${hint}`);
}

async function finishRun(
  core: Core,
  job: JobInfo,
  json: boolean,
  compare: { out?: string } | null,
): Promise<void> {
  const final = await followJob(core, job, json);
  if (final.status !== 'done') throw final.error ?? new Error(`evaluation ${final.status}`);
  const { runId, baseRunId } = final.result as { runId: number; baseRunId?: number | null };
  if (!compare) return showRun(core, runId, json);
  if (baseRunId === null || baseRunId === undefined) {
    if (!json) printLine(`run ${runId} is the first finished run of its set: nothing to compare with`);
    return showRun(core, runId, json);
  }
  if (!json) await showRun(core, runId, false);
  printComparison(await core['eval.compare']({ runId, baseRunId }), json, compare.out);
}

function printComparison(c: EvalComparison, json: boolean, out?: string): void {
  if (out) {
    writeFileSync(out, out.endsWith('.json') ? JSON.stringify(c, null, 2) : comparisonToMarkdown(c));
    if (!json) printLine(`wrote ${out}`);
  }
  if (json) return printJson(c);
  if (out) return;
  printLine(comparisonToMarkdown(c).trimEnd());
}

async function showRun(core: Core, runId: number, json: boolean): Promise<void> {
  const r = await core['eval.show']({ runId });
  if (json) return printJson(r);
  printLine(
    `eval #${r.runId} on ${r.setName}: ${r.status}; recall ${r.engines.recall}, ${r.engines.crossEncoder?.startsWith('lexical:') ? `scoring offline (${r.engines.crossEncoder}; no cross-encoder set up)` : `cross-encoder ${r.engines.crossEncoder ?? '-'}`}`,
  );
  printLine(`Recall@${r.recallK} of the recall stage: ${pct(r.recallAtK)} %`);
  printLine('variant      P      R      F1     EM    Hit@1  Cover  size  pairs/task');
  for (const m of r.summary) {
    const name = m.k ? `${m.variant}@${m.k}` : m.variant;
    printLine(
      `${name.padEnd(11)} ${pct(m.precision)}  ${pct(m.recall)}  ${pct(m.f1)}  ${pct(m.exactMatch)}  ${pct(m.hitAt1)}  ${pct(m.stageCoverage)}  ${m.meanAnswerSize.toFixed(2)}  ${m.crossEncoderPairs.toFixed(1)}`,
    );
  }
  printTriggerFigures(r);
  if (r.differences.length)
    printLine(`${r.differences.length} tasks where variants disagree (eval export ${r.runId} report.md)`);
  await printMissingGold(core, r.setId);
}

/** Per variant and skill: triggered of the should-trigger queries, falsely triggered of the should-not ones, P and R. */
function printTriggerFigures(r: EvalReport): void {
  if (!r.triggers) return;
  const share = (x: number | null) => pct(x ?? undefined);
  const width = Math.max(5, ...r.triggers.flatMap((v) => v.skills.map((s) => s.skill.length)));
  printLine(
    'Trigger figures per skill: should-trigger queries answered with it, should-not ones answered with it anyway',
  );
  printLine(`variant           ${'skill'.padEnd(width)}  triggered  falsely  trig P  trig R`);
  for (const v of r.triggers)
    for (const s of v.skills)
      printLine(
        `${(v.k ? `${v.variant}@${v.k}` : v.variant).padEnd(16)}  ${s.skill.padEnd(width)}  ${`${s.triggered}/${s.shouldTrigger}`.padStart(9)}  ${`${s.falselyTriggered}/${s.shouldNot}`.padStart(7)}  ${share(s.precision)}   ${share(s.recall)}`,
      );
}

/** The label set's gold skills the library lacks, said under the figures (restorable ones with the command). */
async function printMissingGold(core: Pick<CuratorApi, 'labels.coverage'>, setId: number): Promise<void> {
  const words = missingGoldWords(await core['labels.coverage']({ id: setId }), (ids) =>
    ids.map((id) => `skill-curator trash restore ${id}`).join(', '),
  );
  if (words) printLine(`Note: ${words}`);
}
