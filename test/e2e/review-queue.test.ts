// The review queue and the command palette (issue 14), keyboard only, in Debian's Chromium against the browser mode:
// Ctrl+K opens the queue; a verifies and moves on from the first skill to the tenth; the trail survives a reload so
// k goes back; u undoes the last verification; / focuses search; the palette finds a skill by a name prefix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes, screenshot } from './harness';
import { importSampleLibrary, importSampleStates } from './prepare';

describeInChromium('review queue, keyboard only', () => {
  let extra: string;
  const session = useBrowserMode({
    name: 'review',
    open: true,
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      expect((await importSampleStates(core)).applied).toBeGreaterThan(20);
      // One skill without states: it has nothing to verify, so the queue and its count leave it out.
      extra = mkdtempSync(path.join(os.tmpdir(), 'curator-review-unparsed-'));
      mkdirSync(path.join(extra, 'fold-towels'));
      writeFileSync(
        path.join(extra, 'fold-towels', 'SKILL.md'),
        '---\nname: fold-towels\ndescription: Folds towels.\n---\n\nFold each towel in thirds.\n',
      );
      const more = await core['library.import']({ path: extra });
      expect((await core['jobs.wait']({ id: more.id })).status).toBe('done');
    },
    cleanup: () => {
      if (extra) rmSync(extra, { recursive: true, force: true });
    },
  });

  const name = () => session.page.getByTestId('skill-name').textContent();
  const verified = async () => (await session.server.core['library.stats']({})).byStatus.verified ?? 0;

  it('walks from the first skill to the tenth with a, goes back with k after a reload, and undoes with u', async () => {
    const { server, page } = session;
    const { byStatus } = await server.core['library.stats']({});
    expect(byStatus.unparsed).toBe(1);
    const reviewable = (byStatus.parsed ?? 0) + (byStatus.failed ?? 0) + (byStatus.edited ?? 0);
    expect(await page.getByTestId('review-button').textContent()).toBe(`Review ${reviewable}`);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('review');
    await page.keyboard.press('Enter');
    await page.getByTestId('skill-name').waitFor();
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const current = (await name())!;
      seen.push(current);
      if (i === 5) {
        await page.reload();
        await expect.poll(name).toBe(current);
        // The trail survived the reload: k goes back to the skill before, j returns.
        await page.keyboard.press('k');
        await expect.poll(name).toBe(seen[4]);
        await page.keyboard.press('j');
        await expect.poll(name).toBe(current);
      }
      // `a` does nothing while the panel's states load or its last action runs: wait until Verify could be clicked.
      await expect
        .poll(() => page.getByRole('button', { name: 'Verify', exact: true }).isEnabled())
        .toBe(true);
      // Watched from before the key press: a toast shows for six seconds, which a loaded machine can spend polling.
      const toast = page.locator('.toast', { hasText: `Verified ${current}` }).waitFor();
      await page.keyboard.press('a');
      await toast;
      await expect.poll(name).not.toBe(current);
    }
    expect(new Set(seen).size).toBe(10);
    await expect.poll(verified).toBe(10);
    await inBothThemes(page, 'review-queue');

    await page.keyboard.press('u');
    await expect.poll(verified).toBe(9);
    const tenth = (
      await server.core['library.search']({ query: seen[9]!, mode: 'keyword', limit: 5 })
    ).hits.find((h) => h.skill.name === seen[9])!;
    expect((await server.core['states.get']({ skillId: tenth.skill.id })).status).not.toBe('verified');
    await page.locator('.toast', { hasText: 'is back to its earlier state' }).waitFor();
  });

  it('finds a skill by a prefix of its name in the command palette, and / focuses search', async () => {
    const { page, problems } = session;
    await page.keyboard.press('Control+k');
    await page.keyboard.type('household-heat-object-micro');
    const option = page.getByRole('option', { name: /household-heat-object-microwave/ });
    await option.waitFor();
    await inBothThemes(page, 'command-palette', '.palette');
    for (let i = 0; i < 10 && (await option.getAttribute('aria-selected')) !== 'true'; i++)
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(name).toBe('household-heat-object-microwave');

    await page.keyboard.press('/');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Search');
    expect(problems).toEqual([]);
  });

  it('shows a disabled Verify on an unparsed skill as disabled in the dark theme', async () => {
    const { server, page } = session;
    const unparsed = (await server.core['library.list']({ status: 'unparsed', limit: 5, offset: 0 })).items;
    expect(unparsed.map((s) => s.name)).toEqual(['fold-towels']);
    await page.evaluate((id) => (window.location.hash = `#/skill/${id}`), unparsed[0]!.id);
    await expect.poll(name).toBe('fold-towels');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const verify = page.getByRole('button', { name: 'Verify', exact: true });
    expect(await verify.isDisabled()).toBe(true);
    const look = await verify.evaluate((el) => {
      const accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim();
      const probe = document.createElement('span');
      probe.style.color = accent;
      document.body.append(probe);
      const accentRgb = getComputedStyle(probe).color;
      probe.remove();
      return { background: getComputedStyle(el).backgroundColor, accentRgb };
    });
    expect(look.background).not.toBe(look.accentRgb);
    await screenshot(page, 'review-disabled-verify-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('says that no skill matches the filters, not that the library is empty, and clears them', async () => {
    const { page } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Review status').selectOption('failed');
    const noMatch = page.getByTestId('no-match');
    await expect.poll(() => noMatch.textContent()).toContain('No skills match these filters');
    expect(await page.getByText('The library is empty').count()).toBe(0);
    await noMatch.getByRole('button', { name: 'Clear filters' }).click();
    await page.locator('.skill-row').first().waitFor();
    expect(await page.getByLabel('Review status').inputValue()).toBe('');
  });
});
