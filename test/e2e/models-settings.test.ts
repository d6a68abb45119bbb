// Settings → local models in Chromium, against a real ONNX model (a tiny Qwen3-shaped embedder run by transformers.js
// and onnxruntime-node in the model worker): verify a folder, use it, build the vector index, search densely.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, tinyEmbedderCoreOptions } from './prepare';

describeInChromium('local models in the Settings screen', () => {
  let dir: string;
  const session = useBrowserMode({
    name: 'models',
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    coreOptions: () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-models-'));
      return tinyEmbedderCoreOptions(dir);
    },
    prepare: ({ core }) => importSampleLibrary(core),
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });

  it('verifies a model folder, uses it, builds the index and searches densely', async () => {
    const { server, page } = session;
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/settings'));
    const models = page.locator('section[aria-label="Local models"]');
    await models.waitFor();
    await expect.poll(() => models.getByTestId('engine-status').textContent()).toMatch(/lexical/);
    // Lexical recall needs no index: the button says why it cannot be used, and a download says what it costs.
    expect(await models.getByRole('button', { name: 'Build index' }).isDisabled()).toBe(true);
    expect(await models.getByTestId('index-disabled-reason').textContent()).toContain(
      'needs no vector index',
    );
    await models.locator('.download-help summary').first().click();
    expect(await models.locator('.download-help').first().textContent()).toMatch(
      /Download size: about 0\.60 GB \(q8\).*huggingface\.co\/onnx-community\/Qwen3-Embedding-0\.6B-ONNX.*<folder>\/onnx\/model\.onnx/s,
    );

    await page.locator('input[name="models.embedder.path"]').fill(path.join(dir, 'not-a-model'));
    await models.getByRole('button', { name: 'Verify folder' }).first().click();
    await models.locator('.error-note', { hasText: 'Model folder has problems' }).waitFor();

    await page.locator('input[name="models.embedder.path"]').fill(path.join(dir, 'embedder'));
    await page.locator('select[name="models.embedder.dtype"]').selectOption('fp32');
    await page.locator('select[name="models.embedder.device"]').selectOption('cpu');
    await models.getByRole('button', { name: 'Verify folder' }).first().click();
    await models.locator('.note.ok', { hasText: 'Model folder is usable' }).waitFor({ timeout: 90_000 });
    await models.getByRole('button', { name: 'Use this folder' }).first().click();
    await expect
      .poll(() => models.getByTestId('engine-status').locator('tbody tr').first().textContent(), {
        timeout: 90_000,
      })
      .toMatch(/onnx/);

    await models.getByRole('button', { name: 'Build index' }).click();
    await expect
      .poll(() => models.getByTestId('index-status').textContent(), { timeout: 120_000 })
      .toMatch(/^48 of 48 skills embedded/);
    await expect.poll(() => models.getByTestId('engine-status').textContent()).toMatch(/cpu/);
    await inBothThemes(page, 'settings-models', 'section[aria-label="Local models"]');

    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByLabel('Search mode').selectOption('dense');
    await page.getByLabel('Search', { exact: true }).fill('heat the mug');
    await expect.poll(() => page.getByTestId('search-summary').textContent()).toMatch(/dense, embedder/);
    expect(await page.locator('.skill-row').count()).toBeGreaterThan(0);
    await inBothThemes(page, 'library-dense');
  }, 300_000);
});
