// The library list at 70,000 skills: the page holds only the rows on screen and fetches pages as it scrolls.
// The list API here serves generated rows so the test measures the renderer, not the import.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SkillSummary } from '../../src/shared/api';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { describeInChromium } from './browser-session';
import {
  ensureRendererBuilt,
  launchChromium,
  screenshot,
  screenshotDir,
  startBrowserModeServer,
  type BrowserModeServer,
} from './harness';

const total = 70_000;

function row(i: number): SkillSummary {
  return {
    id: i + 1,
    name: `generated-skill-${String(i).padStart(5, '0')}`,
    description: `Generated skill number ${i} for the large-library check.`,
    sourceId: 1,
    relPath: `generated/${i}`,
    status: i % 5 === 0 ? 'verified' : 'unparsed',
    warningCount: 0,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describeInChromium('library list at 70,000 skills', () => {
  let base: BrowserModeServer;
  let host: HttpHost;
  let browser: Browser;
  const requested: number[] = [];

  beforeAll(async () => {
    const renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    base = await startBrowserModeServer(renderer);
    const core = {
      ...base.core,
      'library.list': async (req: { limit?: number; offset?: number }) => {
        const offset = req.offset ?? 0;
        const limit = req.limit ?? 100;
        requested.push(offset);
        const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, j) =>
          row(offset + j),
        );
        return { total, items };
      },
    };
    host = await startHttpHost({ core, port: 0, rendererDir: renderer });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await base?.close();
  });

  it('renders only the visible rows and reaches the last one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${host.url}/#token=${host.token}`);
    const list = page.locator('.skill-list');
    await page.waitForFunction(
      (n) => Number(document.querySelector('.skill-list')?.getAttribute('data-count')) === n,
      total,
    );
    await page.locator('[data-skill-name="generated-skill-00000"]').waitFor();
    const rowsInDom = await page.locator('.skill-row').count();
    expect(rowsInDom).toBeLessThan(60);

    const started = Date.now();
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator(`[data-skill-name="generated-skill-${String(total - 1).padStart(5, '0')}"]`).waitFor();
    console.log(
      `70,000 rows: ${rowsInDom} rows in the DOM; scroll to the end showed the last row in ${Date.now() - started} ms`,
    );
    expect(await page.locator('.skill-row').count()).toBeLessThan(60);
    // Only the first page and the pages at the end were fetched, not the 349 in between.
    expect(new Set(requested).size).toBeLessThan(6);

    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await page.locator('[data-skill-name^="generated-skill-3"]').first().waitFor();
    await screenshot(page, 'library-70k');
    await page.close();
  });
});
