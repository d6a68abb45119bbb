// The command palette reaches every screen the top bar links to (Profiles was missing from it), in Debian's Chromium
// against the browser mode: for each tab, Ctrl+K, type the tab's label, Enter, and the tab's screen is open.
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';

describeInChromium('command palette screens', () => {
  const session = useBrowserMode({ name: 'palette', viewport: { width: 1280, height: 800 }, open: true });

  it('offers every top-bar screen and opens it', async () => {
    const { page, problems } = session;
    const tabs = await page
      .locator('nav[aria-label="Screens"] a')
      .evaluateAll((links) =>
        links.map((a) => ({ label: a.textContent ?? '', href: a.getAttribute('href') })),
      );
    expect(tabs.map((t) => t.label)).toContain('Profiles');
    for (const tab of tabs) {
      await page.keyboard.press('Control+k');
      await page.getByLabel('Command', { exact: true }).fill(tab.label);
      const first = page.getByRole('listbox', { name: 'Commands' }).getByRole('option').first();
      await expect.poll(() => first.textContent()).toBe(`${tab.label}screen`);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(tab.href);
    }
    expect(problems).toEqual([]);
  });
});
