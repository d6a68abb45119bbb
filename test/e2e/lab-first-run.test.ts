// A newcomer's first Selection lab run, with no LLM and no label set: the lab says that a run without a parse has no
// sub-tasks or states (so an empty graph is expected), and loads the bundled sample tasks with one button.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumPath,
  ensureRendererBuilt,
  inBothThemes,
  launchChromium,
  repoRoot,
  screenshotDir,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

describe.runIf(existsSync(chromiumPath) || process.env.CI === 'true')('Selection lab, first run', () => {
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
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    problems = watchPageProblems(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says a run with no parse and no LLM has no states, and loads the sample tasks on request', async () => {
    expect((await server.core['settings.get']({})).llm.model).toBe('');
    expect(await server.core['labels.list']({})).toEqual([]);
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.locator('textarea[name="task"]').fill('heat a mug of water in the microwave');
    const note = page.getByTestId('no-parse-note');
    await expect.poll(() => note.textContent()).toContain('No LLM endpoint is set and no parse was given');

    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('variant-answers').waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toContain('full works like no-graph');
    await inBothThemes(page, 'lab-no-parse-note', 'section[aria-label="Task"]');

    await page.getByRole('button', { name: 'Load the sample tasks' }).click();
    await page.getByLabel('Sample task').selectOption('hh-01');
    const sets = await server.core['labels.list']({});
    expect(sets.map((s) => s.name)).toEqual(['sample']);
    // The sample task brings its hand parse: the run has states now, and the note is gone.
    await page.locator('textarea[name="task"]').waitFor();
    await expect.poll(() => note.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
