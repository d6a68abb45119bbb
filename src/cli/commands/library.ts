// CLI: import, import-report, list, show, search, stats, sources, conflicts (`conflicts resolve` is in
// conflicts-resolve.ts).
import type { Command } from 'commander';
import { Option } from 'commander';
import type { ImportReport, ReviewStatus, SearchMode, SkillFilters, SourceKind } from '../../shared/api';
import { severities, type Severity } from '../../shared/api/audit';
import { CuratorError } from '../../shared/errors';
import type { Core } from '../../core';
import { cliCommand } from '../../shared/cli-command';
import { countOf } from '../../shared/import-hints';
import { printImportReport } from '../import-report-print';
import { followJob, printJobJson, printJson, printLine } from '../output';
import { countOption, idOption, offsetOption } from '../number-options';
import { wholeNumberArgument, withCore } from '../run-command';
import { searchedLexicallyInstead } from '../../shared/search-words';

function filtersFrom(opts: {
  source?: number;
  status?: ReviewStatus;
  errors?: boolean;
  tag?: string;
  audit?: Severity | 'clean' | 'unaudited';
}): SkillFilters {
  const filters: SkillFilters = {};
  if (opts.audit === 'clean' || opts.audit === 'unaudited') filters.auditState = opts.audit;
  else if (opts.audit !== undefined) filters.auditAtLeast = opts.audit;
  if (opts.tag !== undefined) filters.tag = opts.tag;
  if (opts.source !== undefined) filters.sourceId = opts.source;
  if (opts.status) filters.status = opts.status;
  if (opts.errors) filters.hasWarnings = true;
  return filters;
}

/** The list's audit column: the worst unsuppressed severity, "clean", or "-" for never audited. */
const auditWord = (s: { auditWorst?: Severity | null; auditedAt?: string | null }): string =>
  s.auditWorst && s.auditWorst !== 'info' ? s.auditWorst : s.auditedAt ? 'clean' : '-';

/** The command that prints a whole import report of this library (its --data and --db named). */
const wholeReportOf = (core: Core) => (args: string[]) =>
  cliCommand(core.context.paths, ['import-report', ...args]);
const undoOf = (core: Core) => cliCommand(core.context.paths, ['undo']);

const statusOption = () =>
  new Option('--status <status>', 'review status').choices([
    'unparsed',
    'parsed',
    'failed',
    'edited',
    'verified',
  ]);

export function registerLibraryCommands(program: Command): void {
  program
    .command('import <path>')
    .description('import skills from a folder tree, a .zip, a single SKILL.md or a JSONL dump')
    .addOption(
      new Option('--kind <kind>', 'source kind (detected when omitted)').choices([
        'folder',
        'zip',
        'file',
        'jsonl',
      ]),
    )
    .option('--label <label>', 'a name for this source')
    .addOption(
      new Option('--on-conflict <mode>', 'same name, different content')
        .choices(['record', 'keep-both', 'replace', 'skip'])
        .default('record'),
    )
    .option('--warnings', 'list every warning')
    .action(
      withCore(
        async (
          core,
          g,
          source: string,
          opts: { kind?: SourceKind; label?: string; onConflict: 'record'; warnings?: boolean },
        ) => {
          const job = await core['library.import']({
            path: source,
            kind: opts.kind,
            label: opts.label,
            onConflict: opts.onConflict,
          });
          const final = await followJob(core, job, !!g.json);
          const report = final.result as ImportReport | undefined;
          // The report is the job's result: printed once, under its own name.
          if (g.json) return printJobJson({ job: { ...final, result: undefined }, report }, final);
          if (final.status === 'failed') throw final.error;
          if (!report) return;
          printImportReport(report, { ...opts, wholeReport: wholeReportOf(core), undo: undoOf(core) });
          // Every package refused: a script (or `&&`) should not carry on as if the skills were there.
          const placed = ['added', 'updated', 'unchanged', 'duplicates', 'conflicts'] as const;
          if (countOf(report, 'rejected') > 0 && placed.every((list) => countOf(report, list) === 0)) {
            printLine('nothing was imported: every package was rejected');
            process.exitCode = 1;
          }
        },
      ),
    );

  program
    .command('import-report <source-id>')
    .description(
      "the latest import's report of a source, every line of it (an import lists the first 100 of each kind)",
    )
    .option('--warnings', 'list every warning')
    .action(
      withCore(async (core, g, id: string, opts: { warnings?: boolean }) => {
        const sourceId = wholeNumberArgument(id);
        const report = await core['library.importReport']({ sourceId });
        if (!report)
          throw new CuratorError(
            'NOT_FOUND',
            `Source ${sourceId} has no import report (sources lists the library's sources)`,
          );
        if (g.json) return printJson(report);
        printImportReport(report, {
          ...opts,
          whole: true,
          wholeReport: wholeReportOf(core),
          undo: undoOf(core),
        });
      }),
    );

  program
    .command('list')
    .description('list skills')
    .option('--source <id>', 'only this source', idOption)
    .addOption(statusOption())
    .option('--errors', 'only skills with validation warnings')
    .option('--tag <tag>', 'only skills with this tag')
    .addOption(
      new Option(
        '--audit <severity>',
        'only skills with an unsuppressed audit finding at or above it (or clean, unaudited)',
      ).choices([...severities, 'clean', 'unaudited']),
    )
    .option('--limit <n>', 'rows', countOption, 50)
    .option('--offset <n>', 'skip rows', offsetOption, 0)
    .action(
      withCore(
        async (
          core,
          g,
          opts: {
            source?: number;
            status?: ReviewStatus;
            errors?: boolean;
            tag?: string;
            audit?: Severity | 'clean' | 'unaudited';
            limit: number;
            offset: number;
          },
        ) => {
          const page = await core['library.list']({
            ...filtersFrom(opts),
            limit: opts.limit,
            offset: opts.offset,
          });
          if (g.json) return printJson(page);
          for (const s of page.items)
            printLine(
              `${String(s.id).padStart(5)}  ${s.name.padEnd(40)} ${s.status.padEnd(9)} ${auditWord(s).padEnd(9)} ${s.description.slice(0, 70)}`,
            );
          const more = opts.offset + page.items.length < page.total;
          printLine(
            `${page.items.length} of ${page.total}${more ? ' (--limit N, --offset N for more)' : ''}`,
          );
        },
      ),
    );

  program
    .command('show <skill>')
    .description('show one skill by id or name')
    .option('--files', 'list every file of the package (by default the first 20)')
    .action(
      withCore(async (core, g, skill: string, opts: { files?: boolean }) => {
        const detail = await core['library.get'](
          /^\d+$/.test(skill) ? { id: Number(skill) } : { name: skill },
        );
        if (g.json) return printJson(detail);
        printLine(
          `${detail.name} (#${detail.id}, ${detail.status}) from ${detail.sourceLabel}/${detail.relPath}`,
        );
        if (!/^\d+$/.test(skill)) {
          // A name kept twice (keep-both) names the newest; say which others there are.
          const others = (await core['library.list']({ name: skill, limit: 20 })).items.filter(
            (s) => s.id !== detail.id,
          );
          if (others.length > 0)
            printLine(
              `note: ${others.length + 1} skills are named ${skill}; this is the newest. Others: ${others
                .map((s) => `#${s.id} (${s.relPath}, source ${s.sourceId})`)
                .join(', ')}; show ID opens one`,
            );
        }
        printLine(detail.description);
        for (const w of detail.warnings) printLine(`  warning [${w.rule}] ${w.message}`);
        const shown = opts.files ? detail.files : detail.files.slice(0, 20);
        const more = detail.files.length - shown.length;
        printLine(
          `files (${detail.files.length}): ${shown.map((f) => f.path).join(', ') || 'none'}${more > 0 ? `, … ${more} more (--files lists them all)` : ''}`,
        );
        printLine('');
        printLine(detail.body);
      }),
    );

  program
    .command('search <query...>')
    .description('search the library')
    .addOption(
      new Option('--mode <mode>', 'search mode').choices(['keyword', 'dense', 'hybrid']).default('keyword'),
    )
    .option('--source <id>', 'only this source', idOption)
    .addOption(statusOption())
    .option('--errors', 'only skills with validation warnings')
    .option('--limit <n>', 'results', countOption, 10)
    .action(
      withCore(
        async (
          core,
          g,
          words: string[],
          opts: { mode: SearchMode; source?: number; status?: ReviewStatus; errors?: boolean; limit: number },
        ) => {
          const res = await core['library.search']({
            query: words.join(' '),
            mode: opts.mode,
            filters: filtersFrom(opts),
            limit: opts.limit,
          });
          if (g.json) return printJson(res);
          printLine(`${res.mode} search (${res.engine}): ${res.hits.length} hits`);
          if (searchedLexicallyInstead(res))
            printLine(
              `note: ${res.mode} search needs an embedding model and none is set up, so these hits come from the built-in lexical ranking (models download embedder, or models add embedder FOLDER; then index build)`,
            );
          if (res.notice) printLine(`note: ${res.notice}`);
          for (const [i, h] of res.hits.entries()) {
            printLine(`${String(i + 1).padStart(3)}. ${h.skill.name}  (${h.score.toFixed(3)})`);
            if (h.snippet) printLine(`     ${h.snippet.replace(/\s+/g, ' ').slice(0, 160)}`);
          }
        },
      ),
    );

  program
    .command('stats')
    .description('library counts and size')
    .action(
      withCore(async (core, g) => {
        const stats = await core['library.stats']({});
        if (g.json) return printJson(stats);
        printLine(
          `skills ${stats.skills}, sources ${stats.sources}, with warnings ${stats.withWarnings}, open conflicts ${stats.openConflicts}`,
        );
        printLine(
          `review: ${Object.entries(stats.byStatus)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
        printLine(`database ${(stats.dbBytes / 1024 / 1024).toFixed(1)} MiB`);
      }),
    );

  program
    .command('sources')
    .description('import sources')
    .action(
      withCore(async (core, g) => {
        const sources = await core['library.sources']({});
        if (g.json) return printJson(sources);
        for (const s of sources)
          printLine(
            `${String(s.id).padStart(3)}  ${s.kind.padEnd(6)} ${String(s.skillCount).padStart(6)} skills  ${s.label}  ${s.uri}`,
          );
      }),
    );

  const conflicts = program
    .command('conflicts')
    .description('skills with the same name and different content');
  conflicts
    .command('list', { isDefault: true })
    .description('open conflicts (--all: resolved ones too); resolve one with `conflicts resolve ID ...`')
    .option('--all', 'include resolved ones')
    .action(
      withCore(async (core, g, opts: { all?: boolean }) => {
        const list = await core['library.conflicts']({ includeResolved: !!opts.all });
        if (g.json) return printJson(list);
        const sources = new Map((await core['library.sources']({})).map((s) => [s.id, s.label]));
        for (const c of list)
          printLine(
            `#${c.id} ${c.name}: ${c.relPath} from source ${c.sourceId} (${sources.get(c.sourceId) ?? 'removed'}) vs skill ${c.existingSkillId}${c.resolution ? ` -> ${c.resolution}` : ''}`,
          );
        if (list.length === 0) printLine('no conflicts');
        else if (list.some((c) => c.resolution === null))
          printLine(
            'resolve one: conflicts resolve ID keep-both|replace|skip; many: conflicts resolve --all --keep-both (add --dry-run to see first)',
          );
      }),
    );
}
