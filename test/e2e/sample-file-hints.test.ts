// The Apply-states panel and the empty Evaluation screen name the bundled sample files by their absolute paths on this
// host (a relative `resources/...` only worked from the repository root) and fill them in with one click.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumOrSkip,
  ensureRendererBuilt,
  launchChromium,
  repoRoot,
  screenshotDir,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

describe.runIf(chromiumOrSkip())('sample file hints', () => {
  let server: BrowserModeServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    server = await startBrowserModeServer(renderer);
    const job = await server.core['library.import']({
      path: path.join(repoRoot, 'resources', 'sample-library'),
    });
    expect((await server.core['jobs.wait']({ id: job.id })).status).toBe('done');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(20_000);
    problems = watchPageProblems(page);
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('fills in the sample states and applies them', async () => {
    const { sampleStates } = await server.core['settings.paths']({});
    expect(path.isAbsolute(sampleStates)).toBe(true);
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Apply reviewed states' });
    expect(await panel.locator('code').textContent()).toBe(sampleStates);
    await panel.getByRole('button', { name: 'Use them' }).click();
    expect(await panel.getByLabel('States file').inputValue()).toBe(sampleStates);
    await panel.getByRole('button', { name: 'Apply states' }).click();
    await expect
      .poll(() => panel.getByTestId('states-applied').textContent())
      .toMatch(/^Applied states to 48 skills/);
  });

  it('fills in the sample tasks on an Evaluation screen with no label set, and imports them', async () => {
    const { sampleTasks } = await server.core['settings.paths']({});
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    const sets = page.getByRole('region', { name: 'Label sets' });
    expect(await sets.locator('code').textContent()).toBe(sampleTasks);
    await sets.getByRole('button', { name: 'Use them' }).click();
    expect(await sets.locator('input[name="label-path"]').inputValue()).toBe(sampleTasks);
    await sets.getByRole('button', { name: 'Import label set' }).click();
    await expect.poll(async () => (await server.core['labels.list']({})).length).toBe(1);
    expect(problems).toEqual([]);
  });
});
