// Settings for people (issue 14), in Debian's Chromium against the browser mode and the loopback OpenAI server:
// sizes in units ("Maximum SKILL.md size", 1 MiB), the connection tested with the values as typed before saving, and
// the endpoint's model list (GET /v1/models) to pick from.
import { existsSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import {
  chromiumPath,
  ensureRendererBuilt,
  inBothThemes,
  launchChromium,
  screenshot,
  screenshotDir,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

describe.runIf(existsSync(chromiumPath) || process.env.CI === 'true')('settings in words', () => {
  let server: BrowserModeServer;
  let llm: OpenAiServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    server = await startBrowserModeServer(renderer);
    llm = await startOpenAiServer({
      models: ['zeta-model', 'alpha-model'],
      reply: () => ({ content: 'OK' }),
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    problems = watchPageProblems(page);
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
    await page.evaluate(() => (window.location.hash = '#/settings'));
    await page.locator('section[aria-label="LLM endpoint"]').waitFor();
  });

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail' || !page) return;
    console.log(`Failed at ${page.url()}; last page messages: ${JSON.stringify(problems.slice(-5))}`);
    await screenshot(page, `failed-settings-${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await llm?.close();
  });

  it('shows sizes in units with labels in words, and stores bytes', async () => {
    const size = page.getByLabel(/^Maximum SKILL\.md size/);
    expect(await size.inputValue()).toBe('1');
    expect(await page.locator('input[name="import.skillMdMaxBytes"] + .unit').textContent()).toBe('MiB');
    expect(await page.getByLabel(/^Timeout per request/).inputValue()).toBe('60');
    await size.fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await server.core['settings.get']({})).import.skillMdMaxBytes).toBe(2 * 1024 * 1024);
  });

  it('tests the endpoint as typed, before saving, and picks a model from its list', async () => {
    await page.locator('input[name="llm.baseURL"]').fill(llm.baseURL);
    await page.getByRole('button', { name: 'List the endpoint’s models' }).click();
    const pick = page.getByLabel('Pick a model');
    await pick.waitFor();
    expect(await pick.locator('option').allTextContents()).toEqual([
      'Pick one of 2 models…',
      'alpha-model',
      'zeta-model',
    ]);
    await pick.selectOption('zeta-model');
    expect(await page.locator('input[name="llm.model"]').inputValue()).toBe('zeta-model');

    // Nothing is saved yet, and the test still reaches the typed endpoint with the picked model.
    expect((await server.core['settings.get']({})).llm.model).toBe('');
    await page.getByRole('button', { name: 'Test these values' }).click();
    await expect.poll(() => page.getByTestId('llm-test').textContent()).toMatch(/^Connected: zeta-model/);
    expect(llm.requests.at(-1)?.body?.model).toBe('zeta-model');
    await inBothThemes(page, 'settings-llm-models', 'section[aria-label="LLM endpoint"]');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await server.core['settings.get']({})).llm).toMatchObject({
      baseURL: llm.baseURL,
      model: 'zeta-model',
    });
    expect(problems).toEqual([]);
  });
});
