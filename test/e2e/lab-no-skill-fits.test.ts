// "No skill fits" in the Selection lab (issue 26): a task the sample library does not serve gets an empty answer
// card that says so, with the best candidate's rho, the threshold and the answer it held back; the dense baseline
// beside it still answers. In Debian's Chromium against the browser mode, offline preset.
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, importSampleStates } from './prepare';

describeInChromium('Selection lab: no skill fits', () => {
  const session = useBrowserMode({
    name: 'lab-no-skill-fits',
    viewport: { width: 1000, height: 700 },
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleStates(core, { verify: true });
      await core['settings.update']({ patch: { selection: { preset: 'offline' } } });
    },
  });

  it('shows the abstention on the card, with the reason and what the threshold held back', async () => {
    const { server, page, problems } = session;
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.locator('textarea[name="task"]').fill('write a funny but kind toast for my sister’s wedding');
    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('variant-answers').waitFor({ timeout: 60_000 });
    const full = page.locator('.variant-card[data-variant="full"]');
    const abstained = full.getByTestId('abstained');
    await abstained.waitFor();
    const text = (await abstained.textContent()) ?? '';
    expect(text).toMatch(
      /^no skill fits No skill fits: the best candidate, [a-z0-9-]+, has ρ -\d+\.\d\d, below/,
    );
    expect(text).toMatch(/below the abstain threshold -0\.7\. Without the threshold: [a-z0-9-]+/);
    expect(await full.locator('ol li').count()).toBe(0);
    const dense = page.locator('.variant-card[data-variant="dense"]');
    if ((await dense.count()) > 0) expect(await dense.locator('ol li').count()).toBeGreaterThan(0);
    await inBothThemes(page, 'lab-no-skill-fits');

    // Settings: the offline threshold, emptied, turns the rule off; the same task then gets its weak skill.
    await page.evaluate(() => (window.location.hash = '#/settings/selection'));
    const box = page.getByLabel(/No skill fits below \(offline preset\)/);
    await box.waitFor();
    expect(await box.inputValue()).toBe('-0.7');
    await box.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await server.core['settings.get']({});
    expect(saved.selection.abstainBelow.offline).toBeNull();
    await inBothThemes(page, 'settings-abstain-off', '[name="selection.abstainBelow.exact"]');
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.locator('textarea[name="task"]').fill('write a funny but kind toast for my sister’s wedding');
    await page.getByRole('button', { name: 'Select skills' }).click();
    await expect.poll(() => full.locator('ol li').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await full.getByTestId('abstained').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
