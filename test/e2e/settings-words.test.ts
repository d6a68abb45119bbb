// Settings for people (issue 14), in Debian's Chromium against the browser mode and the loopback OpenAI server:
// sizes in units ("Maximum SKILL.md size", 1 MiB), the connection tested with the values as typed before saving, and
// the endpoint's model list (GET /v1/models) to pick from.
import { expect, it } from 'vitest';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';

describeInChromium('settings in words', () => {
  let llm: OpenAiServer;
  const session = useBrowserMode({
    name: 'settings',
    viewport: { width: 1280, height: 900 },
    prepare: async () => {
      llm = await startOpenAiServer({
        models: ['zeta-model', 'alpha-model'],
        reply: () => ({ content: 'OK' }),
      });
    },
    open: '#/settings',
    ready: 'section[aria-label="LLM endpoint"]',
    cleanup: () => llm?.close(),
  });

  it('shows sizes in units with labels in words, and stores bytes', async () => {
    const { server, page } = session;
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
    const { server, page, problems } = session;
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
