// The Evaluation screen's scoring preset, in Chromium against the real core with no model set up (the Settings' preset
// is exact, the engines lexical): the chooser names what will score ("offline (exact needs a model: …)") with the
// Selection lab's note, a preset that needs an embedder says it cannot run and the run button waits, and the run
// header afterwards says the run scored offline.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { needsEmbedderMessage, offlineInsteadNote } from '../../src/shared/presets';
import { localModelsPlace } from '../../src/shared/settings-places';
import { describeInChromium, useBrowserMode } from './browser-session';
import { importSampleLibrary, sampleTasks } from './prepare';

describeInChromium('evaluation: the preset chooser says what will score', () => {
  let dir: string;
  let setId: number;
  const session = useBrowserMode({
    name: 'eval-preset',
    timeoutMs: 60_000,
    prepare: async ({ core }) => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-eval-preset-'));
      expect((await core['settings.get']({})).selection.preset).toBe('exact');
      await importSampleLibrary(core);
      const three = path.join(dir, 'three-tasks.jsonl');
      writeFileSync(three, readFileSync(sampleTasks, 'utf8').split('\n').slice(0, 3).join('\n'));
      setId = (await core['labels.import']({ path: three, name: 'three sample tasks' })).id;
    },
    cleanup: () => dir && rmSync(dir, { recursive: true, force: true }),
  });

  it('names the offline engine for the Settings’ exact preset, and the run header agrees', async () => {
    const { server, page, problems } = session;
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByLabel('Label set', { exact: true }).selectOption(String(setId));
    const picker = page.getByLabel('Scoring preset');
    const first = picker.locator('option').first();
    await expect.poll(() => first.textContent()).toBe(`offline (exact needs a model: ${localModelsPlace})`);
    expect(await page.getByTestId('preset-fallback').textContent()).toBe(offlineInsteadNote('exact'));
    const run = page.getByRole('button', { name: 'Run evaluation' });

    // fast needs an embedder: the screen says so and does not start a run that would fail.
    await picker.selectOption('fast');
    await expect
      .poll(() => page.getByTestId('preset-unavailable').textContent())
      .toBe(needsEmbedderMessage('fast'));
    expect(await run.isDisabled()).toBe(true);
    expect(await run.getAttribute('title')).toBe(needsEmbedderMessage('fast'));
    expect(await page.getByTestId('preset-fallback').count()).toBe(0);

    await picker.selectOption('');
    await expect.poll(() => run.isDisabled()).toBe(false);
    await page.getByLabel('k values').fill('1');
    await run.click();
    await page.getByRole('heading', { name: /^Run \d+: three sample tasks/ }).waitFor();
    const header = page.locator('section[aria-label="Comparison"] .row .muted.small').first();
    await expect.poll(() => header.textContent()).toContain('scoring offline (lexical:');
    const runId = (await server.core['eval.list']({}))[0]!.runId;
    expect((await server.core['eval.show']({ runId })).engines.crossEncoder).toMatch(/^lexical:/);
    expect(problems).toEqual([]);
  }, 120_000);
});
