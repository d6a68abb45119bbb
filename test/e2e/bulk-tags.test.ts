// Bulk actions and tags in the Library (issue 14, "Review at speed"), in Debian's Chromium against the browser mode and
// the loopback OpenAI server: 20 skills ticked with the keyboard (arrow keys, shift+x for the range) are verified
// after a confirmation that gives the count, and the undo bar's Undo puts them back; a tag added in bulk filters the
// list; the bulk re-parse and "Parse N unparsed" confirmations show the estimated tokens and cost; the skill page adds
// a tag and shows its own re-parse's progress inline.
import { expect, it } from 'vitest';
import type { OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from '../integration/llm-harness';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { connectLoopbackLlm, importSampleLibrary, importSampleStates, skillNameAsked } from './prepare';

describeInChromium('bulk actions and tags', () => {
  let llm: OpenAiServer;
  let asked: string[];
  const session = useBrowserMode({
    name: 'bulk',
    prepare: async ({ core }) => {
      asked = [];
      await importSampleLibrary(core);
      expect((await importSampleStates(core)).applied).toBe(48);
      // Three skills nobody parsed yet, last by name.
      for (const n of ['zz-unparsed-a', 'zz-unparsed-b', 'zz-unparsed-c']) insertSkill(core.context.db, n);
      llm = await connectLoopbackLlm(
        core,
        {
          reply: (req) => {
            const name = skillNameAsked(req);
            asked.push(name);
            return {
              content: `Precondition_State: None\nCompletion_State: The ${name} result exists.`,
              usage: { prompt_tokens: 900, completion_tokens: 40 },
            };
          },
        },
        { promptPricePerMTok: 300, completionPricePerMTok: 900 },
      );
    },
    open: true,
    ready: '.skill-row .row-button',
    cleanup: () => llm?.close(),
  });

  const verified = async () => (await session.server.core['library.stats']({})).byStatus.verified ?? 0;
  const focusedIndex = () =>
    session.page.evaluate(() => document.activeElement?.closest<HTMLElement>('[data-index]')?.dataset.index);
  const rowCheck = (index: number) => session.page.locator(`.skill-row[data-index="${index}"] .row-check`);

  it('verifies 20 skills ticked with the keyboard after a confirmation with the count, and undoes them', async () => {
    const { page, problems } = session;
    expect(await verified()).toBe(0);
    await rowCheck(0).click();
    await page.locator('.skill-row[data-index="0"] .row-button').focus();
    // Arrow keys move through the virtualised list, scrolling rows that were not in the DOM into view.
    for (let i = 0; i < 19; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(focusedIndex).toBe('19');
    await page.keyboard.press('Shift+x');
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('20 selected');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focusedIndex).toBe('18');

    await page.getByRole('button', { name: 'Verify…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm verify' });
    await expect.poll(() => confirm.textContent()).toContain('Verify 20 skills?');
    await inBothThemes(page, 'bulk-verify-confirm');
    await confirm.getByRole('button', { name: 'Verify 20 skills' }).click();
    const bar = page.getByRole('status', { name: 'Undo bulk action' });
    await expect.poll(() => bar.textContent()).toContain('Verified 20 skills');
    await expect.poll(verified).toBe(20);
    await expect.poll(() => page.locator('.skill-row .badge.status-verified').count()).toBeGreaterThan(5);
    await bar.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(verified).toBe(0);
    expect(problems).toEqual([]);
  });

  it('tags 3 skills in bulk, shows the tag on their rows and filters on it', async () => {
    const { server, page } = session;
    await page.getByRole('button', { name: 'Clear selection' }).click();
    for (const i of [1, 3, 5]) await rowCheck(i).click();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('3 selected');
    await page.getByRole('button', { name: 'Tag…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm tag' });
    await confirm.getByLabel('Tags').fill('Needs Work');
    await confirm.getByRole('button', { name: 'Tag 3 skills' }).click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Undo bulk action' }).textContent())
      .toContain('Tagged 3 skills “needs work”');
    expect(await server.core['tags.list']({})).toEqual([{ tag: 'needs work', skills: 3 }]);
    await expect.poll(() => page.locator('.skill-row .tag', { hasText: 'needs work' }).count()).toBe(3);

    await page.getByLabel('Tag', { exact: true }).selectOption('needs work');
    await expect.poll(() => page.locator('.skill-list').getAttribute('data-count')).toBe('3');
    await inBothThemes(page, 'library-tag-filter');
    // Search keeps the tag filter.
    const tagged = await server.core['library.search']({ query: 'git', filters: { tag: 'needs work' } });
    const all = await server.core['library.search']({ query: 'git' });
    expect(all.hits.length).toBeGreaterThan(tagged.hits.length);
    await page.getByLabel('Search', { exact: true }).fill('git');
    await expect
      .poll(() => page.getByTestId('search-summary').textContent())
      .toContain(`${tagged.hits.length} match`);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedIndex).toBe('0');
    await page.getByLabel('Search', { exact: true }).fill('');
    // Enter on a focused row opens the skill.
    await page.locator('.skill-row[data-index="0"] .row-button').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('skill-name').waitFor();
    await expect.poll(() => page.getByTestId('tag-editor').textContent()).toContain('needs work');
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByLabel('Tag', { exact: true }).selectOption('');
    await expect.poll(() => page.locator('.skill-list').getAttribute('data-count')).toBe('51');
  });

  it('shows the estimated tokens and cost before a bulk re-parse, keeping edited states unless Replace', async () => {
    const { page } = session;
    for (const i of [0, 1]) await rowCheck(i).click();
    await page.getByRole('button', { name: 'Re-parse…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm re-parse' });
    const estimate = page.getByTestId('reparse-estimate');
    // The sample states came in as edited: kept, so nothing is sent, unless the curator chooses Replace.
    await expect
      .poll(() => estimate.textContent())
      .toMatch(/^0 skills to send · .* · 2 edited or verified kept/);
    expect(await confirm.getByRole('button', { name: /^Re-parse/ }).isDisabled()).toBe(true);
    await confirm.getByLabel(/Replace edited/).check();
    await expect
      .poll(() => estimate.textContent())
      .toMatch(/^2 skills to send · about [1-9][\d,]* tokens · \$\d+\.\d\d/);
    await inBothThemes(page, 'bulk-reparse-estimate');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(asked).toEqual([]);
  });

  it('asks before parsing the unparsed above the cost line, then parses them', async () => {
    const { server, page } = session;
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByTestId('parse-unparsed').click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm parse' });
    await expect
      .poll(() => page.getByTestId('parse-estimate').textContent())
      .toMatch(/^3 skills to send · about [\d,]+ tokens · \$\d+\.\d\d/);
    expect(await confirm.textContent()).toContain('above the $0.50 line');
    await inBothThemes(page, 'parse-unparsed-confirm');
    await confirm.getByRole('button', { name: 'Parse 3 skills' }).click();
    await expect.poll(async () => (await server.core['library.stats']({})).byStatus.unparsed).toBe(0);
    expect([...asked].sort()).toEqual(['zz-unparsed-a', 'zz-unparsed-b', 'zz-unparsed-c']);
  });

  it('adds a tag on the skill page and shows its own re-parse progress inline', async () => {
    const { server, page, problems } = session;
    const id = (await server.core['library.get']({ name: 'zz-unparsed-a' })).id;
    await page.evaluate((h) => (window.location.hash = h), `#/skill/${id}`);
    const editor = page.getByTestId('tag-editor');
    await editor.getByLabel('Add a tag').fill('household');
    await editor.getByRole('button', { name: 'Add' }).click();
    await expect
      .poll(async () => (await server.core['tags.of']({ skillIds: [id] }))[id])
      .toEqual(['household']);
    await page
      .locator('section[aria-label="Parsed states"]')
      .getByRole('button', { name: 'Re-parse' })
      .click();
    const inline = page.getByTestId('job-inline');
    await expect.poll(() => inline.getAttribute('data-status')).toBe('done');
    expect(await inline.textContent()).toContain('Re-parse finished');
    await inBothThemes(page, 'skill-tags-reparse');
    await editor.getByRole('button', { name: 'Remove tag household' }).click();
    await expect.poll(async () => (await server.core['tags.of']({ skillIds: [id] }))[id]).toEqual([]);
    expect(problems).toEqual([]);
  });
});
