// The Selection lab tells a curator which runs an agent asked for over MCP: a "via MCP" badge in the recent runs and
// in the header of such a run, and none on a run made in the lab.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelectService } from '../../src/core/api/select-service';
import {
  chromiumOrSkip,
  ensureRendererBuilt,
  inBothThemes,
  launchChromium,
  repoRoot,
  screenshotDir,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

describe.runIf(chromiumOrSkip())('runs asked for over MCP in the Selection lab', () => {
  let server: BrowserModeServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let viaMcp: number;
  let inLab: number;

  beforeAll(async () => {
    const renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    server = await startBrowserModeServer(renderer);
    const core = server.core;
    const job = await core['library.import']({ path: path.join(repoRoot, 'resources', 'sample-library') });
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    await core['states.import']({ path: path.join(repoRoot, 'resources', 'sample-states.jsonl') });
    const line = readFileSync(path.join(repoRoot, 'resources', 'sample-tasks.jsonl'), 'utf8').split('\n')[0]!;
    const item = JSON.parse(line) as { task: string; parse: { subtasks: string[]; states: string[] } };
    const req = { task: item.task, parse: item.parse, preset: 'offline' as const };
    // The MCP server's own selection service, as `skill-curator mcp` makes it.
    viaMcp = (await createSelectService(core.context, { via: 'mcp' })['select.run'](req)).runId;
    inLab = (await core['select.run'](req)).runId;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(30_000);
    problems = watchPageProblems(page);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('marks the MCP run in the recent runs and in its header, and not the lab run', async () => {
    await page.goto(server.pageUrl);
    await page.evaluate((id) => (window.location.hash = `#/select/${id}`), viaMcp);
    const headerBadge = page.locator('section[aria-label="Task"] > .row [data-testid="via-mcp"]');
    await headerBadge.waitFor();
    await page.locator('summary', { hasText: 'Recent runs' }).click();
    const runs = page.getByTestId('recent-runs');
    await expect.poll(() => runs.locator('li').count()).toBe(2);
    expect(await runs.locator(`li[data-run="${viaMcp}"] [data-testid="via-mcp"]`).count()).toBe(1);
    expect(await runs.locator(`li[data-run="${inLab}"] [data-testid="via-mcp"]`).count()).toBe(0);
    // The header of the MCP run says so: one badge outside the list.
    expect(await headerBadge.count()).toBe(1);
    await inBothThemes(page, 'lab-via-mcp', 'section[aria-label="Task"]');

    await runs.locator(`li[data-run="${inLab}"] a`).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/select/${inLab}`);
    await page.locator('section[aria-label="Task"] textarea[name="task"]').waitFor();
    await expect.poll(() => page.locator('.lab').getAttribute('data-run')).toBe(String(inLab));
    expect(await headerBadge.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
