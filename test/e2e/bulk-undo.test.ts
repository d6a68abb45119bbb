// The lasting Undo of the Library's bulk actions (issue 27, item 1), in Debian's Chromium against the browser mode and
// the loopback OpenAI server, at 1000×700: a bulk Verify's "Verified 4 skills · Undo" is still there after the 6 s a
// toast lasts and after a reload, and Undo puts the skills back to parsed, leaving one a curator edited since as it is
// and saying so; the same for a bulk Tag, a bulk Re-parse, and the bulk bar's Back to parsed.
import { expect, it } from 'vitest';
import type { OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from '../integration/llm-harness';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { connectLoopbackLlm, skillNameAsked } from './prepare';

const names = ['bulk-a', 'bulk-b', 'bulk-c', 'bulk-d', 'bulk-e', 'bulk-f'];
/** Longer than the 6 s a toast stays. */
const pastAToast = 6500;

describeInChromium('the lasting undo of bulk actions', () => {
  let llm: OpenAiServer;
  let answer = 'first';
  const ids: Record<string, number> = {};
  const session = useBrowserMode({
    name: 'bulk-undo',
    viewport: { width: 1000, height: 700 },
    prepare: async ({ core }) => {
      llm = await connectLoopbackLlm(core, {
        reply: (req) => ({
          content: `Precondition_State: None\nCompletion_State: The ${answer} ${skillNameAsked(req)} result exists.`,
        }),
      });
      core.context.db
        .prepare(
          "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/skills', 'e2e', '2026-01-01')",
        )
        .run();
      for (const n of names) ids[n] = insertSkill(core.context.db, n);
      const job = await core['parse.skills']({});
      expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    },
    open: true,
    ready: '.skill-row .row-button',
    cleanup: () => llm?.close(),
  });

  const status = async (name: string) =>
    (await session.server.core['states.get']({ skillId: ids[name]! })).status;
  const rowCheck = (index: number) => session.page.locator(`.skill-row[data-index="${index}"] .row-check`);
  const tick = async (...indexes: number[]) => {
    const { page } = session;
    if (await page.getByRole('button', { name: 'Clear selection' }).isVisible())
      await page.getByRole('button', { name: 'Clear selection' }).click();
    for (const i of indexes) await rowCheck(i).click();
    await expect
      .poll(() => page.getByTestId('selected-count').textContent())
      .toBe(`${indexes.length} selected`);
  };
  const bar = () => session.page.getByRole('status', { name: 'Undo bulk action' });
  const undone = () => session.page.getByRole('status', { name: 'Bulk action undone' });
  const undoneWords = () => undone().locator('span').first().textContent();

  it('keeps "Verified 4 skills · Undo" past a toast’s 6 s and a reload; Undo skips the one edited since', async () => {
    const { page, server, problems } = session;
    await tick(0, 1, 2, 3);
    await page.getByRole('button', { name: 'Verify…' }).click();
    await page
      .getByRole('alertdialog', { name: 'Confirm verify' })
      .getByRole('button', { name: 'Verify 4 skills' })
      .click();
    await expect.poll(() => bar().textContent()).toContain('Verified 4 skills');
    expect(await page.locator('.toast').count()).toBe(0);
    await expect.poll(() => page.locator('.skill-row .badge.status-verified').count()).toBe(4);
    await page.waitForTimeout(pastAToast);
    await page.reload();
    await page.locator('.skill-row .row-button').first().waitFor();
    await expect.poll(() => bar().textContent()).toContain('Verified 4 skills');
    await inBothThemes(page, 'bulk-undo-verify');

    // A curator corrects bulk-d on its page meanwhile: Undo must not overwrite that.
    await server.core['states.edit']({ skillId: ids['bulk-d']!, completion: 'Corrected by hand.' });
    await bar().getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(undoneWords)
      .toMatch(
        /^Undone: Verified 4 skills — 3 skills back as they were; 1 left as it is because it changed since: bulk-d \(edited at \d{4}-\d\d-\d\d \d\d:\d\d\)$/,
      );
    expect(await Promise.all(['bulk-a', 'bulk-b', 'bulk-c', 'bulk-d'].map(status))).toEqual([
      'parsed',
      'parsed',
      'parsed',
      'edited',
    ]);
    await expect.poll(() => page.locator('.skill-row .badge.status-parsed').count()).toBe(5);
    expect(await bar().count()).toBe(0);
    await inBothThemes(page, 'bulk-undo-verify-undone');
    await undone().getByRole('button', { name: 'Dismiss' }).click();
    expect(problems).toEqual([]);
  });

  it('keeps "Tagged 3 skills “kitchen”" past a toast’s 6 s; Undo takes the tag off again', async () => {
    const { page, server } = session;
    await tick(0, 2, 4);
    await page.getByRole('button', { name: 'Tag…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm tag' });
    await confirm.getByLabel('Tags').fill('Kitchen');
    await confirm.getByRole('button', { name: 'Tag 3 skills' }).click();
    await expect.poll(() => bar().textContent()).toContain('Tagged 3 skills “kitchen”');
    await expect.poll(() => page.locator('.skill-row .tag', { hasText: 'kitchen' }).count()).toBe(3);
    await page.waitForTimeout(pastAToast);
    await bar().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(undoneWords).toBe('Undone: Tagged 3 skills “kitchen” — 3 skills back as they were');
    expect(await server.core['tags.list']({})).toEqual([]);
    await expect.poll(() => page.locator('.skill-row .tag', { hasText: 'kitchen' }).count()).toBe(0);

    // Taking a tag off in bulk is undone the same way.
    await server.core['tags.add']({ skillIds: [ids['bulk-b']!, ids['bulk-c']!], tags: ['old'] });
    await tick(1, 2);
    await page.getByRole('button', { name: 'Tag…' }).click();
    await confirm.getByRole('radio', { name: 'Take off' }).check();
    await confirm.getByLabel('Tags').fill('old');
    await inBothThemes(page, 'bulk-undo-tag-off-confirm');
    await confirm.getByRole('button', { name: 'Take off 2 skills' }).click();
    await expect.poll(() => bar().textContent()).toContain('Took “old” off 2 skills');
    expect(await undone().count()).toBe(0);
    await bar().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await server.core['tags.list']({}))[0]).toEqual({ tag: 'old', skills: 2 });
  });

  it('undoes a bulk re-parse, putting back the states it replaced', async () => {
    const { page, server } = session;
    await undone().getByRole('button', { name: 'Dismiss' }).click();
    answer = 'second';
    await tick(4, 5);
    await page.getByRole('button', { name: 'Re-parse…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm re-parse' });
    await confirm.getByRole('button', { name: 'Re-parse 2 skills' }).click();
    await expect.poll(() => bar().textContent()).toContain('Re-parsed 2 skills');
    const completion = async () => (await server.core['states.get']({ skillId: ids['bulk-e']! })).completion;
    expect(await completion()).toBe('The second bulk-e result exists.');
    await bar().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(undoneWords).toContain('2 skills back as they were');
    expect(await completion()).toBe('The first bulk-e result exists.');
  });

  it('puts verified skills back to parsed from the bulk bar, keeping their states; Undo verifies them again', async () => {
    const { page, server, problems } = session;
    await server.core['states.verifyMany']({ skillIds: [ids['bulk-a']!, ids['bulk-b']!] });
    await tick(0, 1);
    await page.getByRole('button', { name: 'Back to parsed…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm back to parsed' });
    await expect.poll(() => confirm.textContent()).toContain('Their states stay as they are');
    await inBothThemes(page, 'bulk-back-to-parsed-confirm');
    await confirm.getByRole('button', { name: 'Back to parsed' }).click();
    await expect.poll(() => bar().textContent()).toContain('Un-verified 2 skills');
    expect([await status('bulk-a'), await status('bulk-b')]).toEqual(['parsed', 'parsed']);
    expect((await server.core['states.get']({ skillId: ids['bulk-a']! })).completion).toBe(
      'The first bulk-a result exists.',
    );
    await bar().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => status('bulk-a')).toBe('verified');
    expect(await status('bulk-b')).toBe('verified');
    expect(problems).toEqual([]);
  });
});
