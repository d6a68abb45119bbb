// The Selection lab's scoring presets in Chromium, with a real tiny ONNX embedder (transformers.js and
// onnxruntime-node in the model worker): the estimate shows before the run and follows the chosen preset, and the
// trace of a fast selection names the embedder and its calibration.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, importSampleTasks, tinyEmbedderCoreOptions } from './prepare';

describeInChromium('scoring presets in the Selection lab', () => {
  let dir: string;
  const session = useBrowserMode({
    name: 'presets',
    viewport: { width: 1280, height: 900 },
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    coreOptions: () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-presets-'));
      return tinyEmbedderCoreOptions(dir);
    },
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleTasks(core);
      const added = await core['models.add']({
        role: 'embedder',
        path: path.join(dir, 'embedder'),
        dtype: 'fp32',
        device: 'cpu',
      });
      expect(added.ok).toBe(true);
      const index = await core['index.build']({});
      expect((await core['jobs.wait']({ id: index.id })).status).toBe('done');
    },
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });

  it('shows the estimate of the chosen preset before the run, and the scorers after it', async () => {
    const { server, page } = session;
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.locator('section[aria-label="Task"]').waitFor();
    await page.getByLabel('Sample task').selectOption('hh-01');
    const estimate = page.getByTestId('selection-estimate');

    await page.getByLabel('Scoring preset').selectOption('offline');
    await expect.poll(() => estimate.textContent()).toMatch(/^Estimate: up to \d+ pairs, .* \(lexical/);

    // No reranker here: "exact" says it scores with the lexical engine instead of promising the reranker.
    await page.getByLabel('Scoring preset').selectOption('exact');
    await expect
      .poll(() => page.getByTestId('preset-fallback').textContent())
      .toContain('No model is set up for “exact”');

    await page.getByLabel('Scoring preset').selectOption('fast');
    await expect.poll(() => estimate.textContent()).toMatch(/^Estimate: up to \d+ pairs, .* \(embedder/);
    expect(await page.getByTestId('preset-fallback').count()).toBe(0);
    const fastPairs = Number(/up to (\d+) pairs/.exec((await estimate.textContent()) ?? '')![1]);
    await inBothThemes(page, 'selection-preset', 'section[aria-label="Task"]');

    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('execution-graph').waitFor({ timeout: 90_000 });
    const scorers = (await page.getByTestId('trace-scorers').textContent()) ?? '';
    expect(scorers).toMatch(/preset fast/);
    expect(scorers).toMatch(/embedder embedder \(r = 10·\(cos − 0\.5\)\) for every use/);
    const runs = await server.core['select.runs']({ limit: 10 });
    const full = runs.find((r) => r.variant === 'full')!;
    const trace = (await server.core['select.get']({ runId: full.runId })).trace;
    expect(trace.preset).toBe('fast');
    expect(trace.counts.pairs).toBeLessThanOrEqual(fastPairs);
  }, 240_000);
});
