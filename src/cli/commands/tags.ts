// CLI: tags on skills (tag add|remove|list); `list --tag` filters by one.
import type { Command } from 'commander';
import type { Core } from '../../core';
import { printJson, printLine } from '../output';
import { withCore } from '../run-command';

async function skillIds(core: Core, skills: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const s of skills) ids.push(/^\d+$/.test(s) ? Number(s) : (await core['library.get']({ name: s })).id);
  return ids;
}

const tagList = (tags: string) => tags.split(',').filter((t) => t.trim() !== '');

export function registerTagCommands(program: Command): void {
  const tag = program.command('tag').description('tags on skills, to group and filter them');
  tag
    .command('add <tags> <skills...>')
    .description('put tags (comma-separated) on skills (ids or names)')
    .action(
      withCore(async (core, g, tags: string, skills: string[]) => {
        const result = await core['tags.add']({
          skillIds: await skillIds(core, skills),
          tags: tagList(tags),
        });
        if (g.json) return printJson(result);
        printLine(`${result.added} tag${result.added === 1 ? '' : 's'} added`);
      }),
    );
  tag
    .command('remove <tags> <skills...>')
    .description('take tags (comma-separated) off skills (ids or names)')
    .action(
      withCore(async (core, g, tags: string, skills: string[]) => {
        const result = await core['tags.remove']({
          skillIds: await skillIds(core, skills),
          tags: tagList(tags),
        });
        if (g.json) return printJson(result);
        printLine(`${result.removed} tag${result.removed === 1 ? '' : 's'} removed`);
      }),
    );
  tag
    .command('list')
    .description('every tag with how many skills carry it')
    .action(
      withCore(async (core, g) => {
        const tags = await core['tags.list']({});
        if (g.json) return printJson(tags);
        if (tags.length === 0) printLine('No tags yet (add one with: tag add <tag> <skill>)');
        for (const t of tags) printLine(`${t.tag.padEnd(30)} ${t.skills} skill${t.skills === 1 ? '' : 's'}`);
      }),
    );
}
