// CLI: Git sources, update checks and applying them, folder watches, delete, undo and the trash.
import type { Command } from 'commander';
import type {
  DeletedInfo,
  DiffHunkLine,
  ImportReport,
  SourceSync,
  UpdateCheck,
  UpdateItem,
} from '../../shared/api';
import { followJob, printJobJson, printJson, printLine, terminalSafe } from '../output';
import { wholeNumberArgument, withCore } from '../run-command';
import { CuratorError } from '../../shared/errors';
import { countOf } from '../../shared/import-hints';
import { evictedNote, skillsWord, goldInNote } from '../../shared/trash-words';
import { skillIdOf } from '../skill-ref';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function printDiff(diff: DiffHunkLine[]): void {
  for (const line of diff) {
    if (line.op === 'gap') printLine(`      … ${line.skipped} unchanged lines`);
    else printLine(`      ${line.op === 'add' ? '+' : line.op === 'del' ? '-' : ' '} ${line.text}`);
  }
}

function printCheck(check: UpdateCheck, withDiff: boolean): void {
  printLine(
    `source ${check.sourceId} (${check.sourceLabel})${check.commit ? ` at ${check.commit.slice(0, 10)}` : ''}: ` +
      `added ${check.added.length}, changed ${check.changed.length}, removed ${check.removed.length}, unchanged ${check.unchanged}, rejected ${check.rejected.length}`,
  );
  const show = (mark: string, item: UpdateItem) => {
    const kept =
      item.reviewStatus === 'edited' || item.reviewStatus === 'verified'
        ? ` (${item.reviewStatus} states kept)`
        : '';
    printLine(`  ${mark} ${item.name}  ${item.relPath}${kept}`);
    for (const f of item.files) printLine(`      file ${f.change}: ${f.path}`);
    if (withDiff) printDiff(item.diff);
  };
  for (const i of check.added) show('+', i);
  for (const i of check.changed) show('~', i);
  for (const i of check.removed) show('-', i);
}

export function registerSourceCommands(program: Command): void {
  const source = program
    .command('source')
    .description('sources that stay in sync: Git repositories, watched folders');
  source
    .command('add-git <url>')
    .description('clone a Git repository (http/https) and import its skills')
    .option('--ref <ref>', 'branch or tag (default: the default branch)')
    .option('--subdir <folder>', 'folder inside the repository that holds the skills')
    .option('--label <label>', 'a name for this source')
    .option(
      '--token-stdin',
      'read an access token for a private repository from stdin (kept like the LLM key)',
    )
    .action(
      withCore(
        async (
          core,
          g,
          url: string,
          opts: { ref?: string; subdir?: string; label?: string; tokenStdin?: boolean },
        ) => {
          const token = opts.tokenStdin ? await readStdin() : undefined;
          const job = await core['sources.addGit']({
            url,
            ref: opts.ref,
            subdir: opts.subdir,
            label: opts.label,
            token,
          });
          const final = await followJob(core, job, !!g.json);
          const report = final.result as ImportReport | undefined;
          if (g.json) return printJobJson({ job: final, report }, final);
          if (final.status === 'failed') throw final.error;
          if (report) {
            printLine(
              `source ${report.sourceId}: added ${countOf(report, 'added')}, duplicates ${countOf(report, 'duplicates')}, rejected ${countOf(report, 'rejected')}, conflicts ${countOf(report, 'conflicts')}`,
            );
          }
        },
      ),
    );
  source
    .command('check <id>')
    .description('fetch (Git) or read (folder) and list what differs from the library, with a diff per skill')
    .option('--no-diff', 'names only')
    .action(
      withCore(async (core, g, id: string, opts: { diff: boolean }) => {
        const check = await core['sources.check']({ sourceId: wholeNumberArgument(id) });
        if (g.json) return printJson(check);
        printCheck(check, opts.diff);
      }),
    );
  source
    .command('apply <id>')
    .description('apply upstream changes: all, or --only the skills at these paths')
    .option('--only <paths>', 'comma-separated skill paths (as `source check` lists them)')
    .action(
      withCore(async (core, g, id: string, opts: { only?: string }) => {
        const relPaths = opts.only ? opts.only.split(',').map((p) => p.trim()) : undefined;
        const result = await core['sources.apply']({ sourceId: wholeNumberArgument(id), relPaths });
        if (g.json) return printJson(result);
        printLine(
          `source ${result.sourceId}: added ${result.added.length}, updated ${result.updated.length}, removed ${result.removed.length}, conflicts ${result.conflicts.length}, not applied ${result.remaining}`,
        );
        for (const k of result.kept)
          printLine(
            `  ${k.name}: ${k.status} states kept; the skill changed since (see the skill page, or \`source check\`)`,
          );
        if (result.removed.length > 0) printLine('  removed skills can be brought back with `undo`');
      }),
    );
  source
    .command('watch <id>')
    .description('watch a folder source: changes become a pending update (never applied by themselves)')
    .option('--off', 'stop watching')
    .option('--follow', 'stay and print pending updates until Ctrl+C')
    .action(
      withCore(async (core, g, id: string, opts: { off?: boolean; follow?: boolean }) => {
        const sourceId = wholeNumberArgument(id);
        const info = await core['sources.watch']({ sourceId, watch: !opts.off });
        if (g.json && !opts.follow) return printJson(info);
        printLine(`source ${sourceId}: ${info.watched ? 'watched' : 'not watched'}`);
        if (!opts.follow || opts.off) return;
        // The follow stays until Ctrl+C, also while the folder is gone (the watch waits for it) — the interval keeps the
        // process alive whatever the watcher does. A watch that stopped for good ends the follow with status 1.
        let shown: string | undefined;
        const showState = (watch: SourceSync['watch']) => {
          if (!watch || watch.state === shown) return;
          const was = shown;
          shown = watch.state;
          if (watch.state === 'waiting')
            process.stderr.write(
              `${terminalSafe(`source ${sourceId}: ${watch.message ?? 'the folder is gone'}`)}\n`,
            );
          else if (watch.state === 'stopped')
            process.stderr.write(
              `${terminalSafe(`source ${sourceId}: the watch stopped: ${watch.message ?? 'unknown reason'}`)}\n`,
            );
          else if (was === 'waiting')
            process.stderr.write(`source ${sourceId}: the folder is back; watching it again\n`);
        };
        showState(info.watch);
        if (shown === 'stopped') {
          process.exitCode = 1;
          return;
        }
        await new Promise<void>((resolve) => {
          const keepAlive = setInterval(() => undefined, 60_000);
          const end = () => {
            stopEvents();
            clearInterval(keepAlive);
            process.off('SIGINT', end);
            resolve();
          };
          const stopEvents = core.onEvent((event) => {
            if (event.type !== 'library.changed') return;
            if (event.reason !== 'pending-update' && event.reason !== 'watch') return;
            void core['sources.sync']({}).then((all) => {
              const mine = all.find((s) => s.sourceId === sourceId);
              showState(mine?.watch);
              if (shown === 'stopped') {
                process.exitCode = 1;
                return end();
              }
              if (event.reason !== 'pending-update') return;
              const p = mine?.pending;
              if (g.json) printJson({ sourceId, pending: p ?? null });
              else if (p)
                printLine(
                  `pending update: added ${p.added}, changed ${p.changed}, removed ${p.removed} (apply with: source apply ${sourceId})`,
                );
              else printLine('no pending update');
            });
          });
          process.once('SIGINT', end);
        });
      }),
    );
  source
    .command('delete <id>')
    .description('delete a source and all its skills (undo brings them back)')
    .option('--yes', 'do it; without it, only say what would go')
    .action(
      withCore(async (core, g, id: string, opts: { yes?: boolean }) => {
        const sourceId = wholeNumberArgument(id);
        const preview = await core['sources.deletePreview']({ sourceId });
        if (!opts.yes) {
          if (g.json) return printJson(preview);
          printLine(
            `would delete source ${preview.sourceLabel} and its ${preview.skills} skills (${preview.reviewed} reviewed); add --yes`,
          );
          return;
        }
        const info = await core['sources.delete']({ sourceId });
        if (g.json) return printJson(info);
        printLine(`deleted ${info.label} (${skillsWord(info.skillCount)}); \`undo\` restores them`);
        const gold = goldInNote(preview.goldIn);
        if (gold) printLine(`Note: ${gold}`);
        printEvicted(info.evicted);
      }),
    );

  program
    .command('skill')
    .description('one skill')
    .command('delete <idOrName...>')
    .description('delete skills (their states are kept for undo)')
    .option('--yes', 'do it; without it, only say what would go')
    .action(
      withCore(async (core, g, ids: string[], opts: { yes?: boolean }) => {
        const skillIds = await Promise.all(ids.map((i) => skillIdOf(core, i)));
        const preview = await core['sources.deletePreview']({ skillIds });
        if (!opts.yes) {
          if (g.json) return printJson(preview);
          printLine(`would delete ${preview.names.join(', ')} (${preview.reviewed} reviewed); add --yes`);
          const gold = goldInNote(preview.goldIn);
          if (gold) printLine(`Note: ${gold}`);
          return;
        }
        const info = await core['sources.delete']({ skillIds });
        if (g.json) return printJson(info);
        printLine(`deleted ${info.label}; \`undo\` restores ${info.skillCount === 1 ? 'it' : 'them'}`);
        const gold = goldInNote(preview.goldIn);
        if (gold) printLine(`Note: ${gold}`);
        printEvicted(info.evicted);
      }),
    );

  program
    .command('undo')
    .description('restore the last delete (skills, files, states and their history)')
    .action(
      withCore(async (core, g) => {
        const info = await core['sources.undoDelete']({});
        if (g.json) return printJson(info);
        printLine(`restored ${info.label} (${skillsWord(info.restoredSkillIds.length)})`);
      }),
    );

  const trash = program
    .command('trash')
    .description('the deletes kept for undo: the last 20, and older ones holding reviewed states')
    .action(
      withCore(async (core, g) => {
        const kept = await core['sources.trash']({});
        if (g.json) return printJson(kept);
        if (kept.length === 0) return printLine('the trash is empty');
        for (const d of kept) printLine(`#${d.id}  ${d.deletedAt}  ${d.label}  ${deletedSize(d)}`);
        printLine('`trash restore ID` brings one back; `undo` the newest');
      }),
    );
  trash
    .command('restore <id>')
    .description('bring back one delete of the trash (skills, files, states and their history)')
    .action(
      withCore(async (core, g, id: string) => {
        const info = await core['sources.restoreDeleted']({ id: wholeNumberArgument(id) });
        if (g.json) return printJson(info);
        printLine(`restored ${info.label} (${skillsWord(info.restoredSkillIds.length)})`);
      }),
    );
  trash
    .command('empty [id]')
    .description('delete for good one delete of the trash, or all of it')
    .option('--yes', 'really delete (without it, says what would go)')
    .action(
      withCore(async (core, g, id: string | undefined, opts: { yes?: boolean }) => {
        const which = id === undefined ? undefined : wholeNumberArgument(id);
        if (!opts.yes) {
          const kept = (await core['sources.trash']({})).filter((d) => which === undefined || d.id === which);
          if (which !== undefined && kept.length === 0)
            throw new CuratorError(
              'NOT_FOUND',
              `No delete ${which} in the trash (\`trash\` lists what it keeps)`,
            );
          const skills = kept.reduce((n, d) => n + d.skillCount, 0);
          const reviewed = kept.reduce((n, d) => n + d.reviewedCount, 0);
          if (g.json) return printJson({ deletes: kept.length, skills, reviewed, done: false });
          printLine(
            `would delete for good ${kept.length} delete${kept.length === 1 ? '' : 's'}: ${skillsWord(skills)}${reviewed === 0 ? '' : skills === 1 ? ', with reviewed states' : `, ${reviewed} of them with reviewed states`}; add --yes`,
          );
          return;
        }
        const gone = await core['sources.emptyTrash'](which === undefined ? {} : { id: which });
        if (g.json) return printJson({ ...gone, done: true });
        printLine(
          `deleted for good ${gone.deletes} delete${gone.deletes === 1 ? '' : 's'}: ${skillsWord(gone.skills)} (${gone.reviewed} reviewed)`,
        );
      }),
    );
}

function printEvicted(evicted: DeletedInfo[]): void {
  const note = evictedNote(evicted);
  if (note) printLine(note);
}

function deletedSize(d: { skillCount: number; reviewedCount: number }): string {
  const skills = skillsWord(d.skillCount);
  return d.reviewedCount > 0 ? `${skills}, ${d.reviewedCount} with reviewed states` : skills;
}
