// The command palette reaches every screen the top bar links to (Profiles was missing from it), in Debian's Chromium
// against the browser mode: for each tab, Ctrl+K, type the tab's label, Enter, and the tab's screen is open.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumPath,
  ensureRendererBuilt,
  launchChromium,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

describe.runIf(existsSync(chromiumPath) || process.env.CI === 'true')('command palette screens', () => {
  let server: BrowserModeServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    server = await startBrowserModeServer(await ensureRendererBuilt());
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(20_000);
    problems = watchPageProblems(page);
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers every top-bar screen and opens it', async () => {
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
