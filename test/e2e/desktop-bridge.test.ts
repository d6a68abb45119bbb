// Desktop mode without an Electron binary: the built renderer in Chromium with window.curator shaped like the preload's
// bridge, wired to the real main-process IPC registration (registerCuratorIpc) over the real core. Only Electron's
// ipcRenderer/ipcMain pipe is replaced (by Playwright's page bindings); the renderer must pick its IPC transport.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { registerCuratorIpc, type IpcInvokeEventLike, type IpcMainLike } from '../../src/main/ipc';
import { registerSaveDialog } from '../../src/main/save-dialog';
import {
  invokeChannel,
  saveDialogChannel,
  type InvokeOutcome,
  type SaveDialogRequest,
} from '../../src/preload/bridge';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { describeInChromium } from './browser-session';
import { ensureRendererBuilt, inBothThemes, launchChromium, repoRoot, screenshotDir } from './harness';
import { sampleLibrary, sampleStates, sampleTasks } from './prepare';

/** ipcMain's handle/invoke contract in one process. */
class InProcessIpc implements IpcMainLike {
  private readonly handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  async invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<InvokeOutcome> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return (await handler(event, ...args)) as InvokeOutcome;
  }
}

describeInChromium('desktop mode through the IPC bridge', () => {
  let dataDir: string;
  let renderer: string;
  let core: Core;
  let staticHost: HttpHost;
  let browser: Browser;
  let page: Page;
  /** What the native save dialog was asked, and the path it answers (null: the user cancels). */
  const dialogAsked: unknown[] = [];
  let dialogAnswer: string | null = null;

  beforeAll(async () => {
    renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-desktop-'));
    core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources') });
    // The page's files come from a host with a token nobody gives the page: every call must go through the bridge.
    staticHost = await startHttpHost({ core, port: 0, rendererDir: renderer });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(20_000);

    const ipc = new InProcessIpc();
    const origin = `${staticHost.url}/`;
    registerCuratorIpc(ipc, core, {
      isTrustedSender: (event) => event.senderFrame?.url.startsWith(origin) ?? false,
    });
    await page.exposeFunction('__curatorInvoke', (method: unknown, req: unknown) =>
      ipc.invoke(invokeChannel, { senderFrame: { url: page.url() } }, method, req),
    );
    await page.exposeFunction('__curatorPickPath', () => sampleLibrary);
    // The main process's save-dialog handler, with Electron's dialog answering what the test says.
    registerSaveDialog(ipc, async (options) => {
      dialogAsked.push(options);
      return dialogAnswer === null ? { canceled: true } : { canceled: false, filePath: dialogAnswer };
    });
    await page.exposeFunction('__curatorSaveDialog', (req: SaveDialogRequest) =>
      ipc.invoke(saveDialogChannel, { senderFrame: { url: page.url() } }, req),
    );
    core.onEvent((event) => {
      void page
        .evaluate((e) => {
          const listeners = (window as unknown as { __curatorListeners?: Set<(e: unknown) => void> })
            .__curatorListeners;
          for (const l of listeners ?? []) l(e);
        }, event)
        .catch(() => undefined);
    });
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown> & {
        __curatorListeners: Set<(e: unknown) => void>;
      };
      w.__curatorListeners = new Set();
      w.curator = {
        invoke: (method: string, req: unknown) =>
          (w.__curatorInvoke as (m: string, r: unknown) => Promise<unknown>)(method, req),
        onEvent: (listener: (e: unknown) => void) => {
          w.__curatorListeners.add(listener);
          return () => w.__curatorListeners.delete(listener);
        },
        desktop: {
          pickPath: () => (w.__curatorPickPath as () => Promise<string>)(),
          pathForFile: () => '',
          saveDialog: (req: unknown) => (w.__curatorSaveDialog as (r: unknown) => Promise<unknown>)(req),
        },
      };
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await staticHost?.close();
    await core?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (renderer) rmSync(renderer, { recursive: true, force: true });
  });

  it('uses the bridge, picks a folder natively, and imports with live progress events', async () => {
    await page.goto(`${staticHost.url}/#/library`);
    await expect.poll(() => page.locator('.topbar .mode').textContent()).toBe('Desktop');
    await page.getByRole('heading', { name: 'The library is empty' }).waitFor();
    await page.getByRole('button', { name: 'Folder…' }).click();
    await expect.poll(() => page.getByLabel('Path to import').inputValue()).toBe(sampleLibrary);
    await page.locator('section[aria-label="Import"] button[type="submit"]').click();
    await page.locator('.import-job[data-status="done"]').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('[data-count-of="added"] strong').textContent()).toBe('48');
    await page.waitForFunction(
      () => document.querySelector('.skill-list')?.getAttribute('data-count') === '48',
    );
    await inBothThemes(page, 'desktop-library');
  });

  it('gets errors as data through the bridge, and unknown methods are refused', async () => {
    const outcomes = await page.evaluate(async () => {
      const bridge = (window as unknown as { curator: { invoke(m: string, r: unknown): Promise<unknown> } })
        .curator;
      return {
        unknown: await bridge.invoke('fs.readFile', { path: '/etc/passwd' }),
        missing: await bridge.invoke('library.get', { id: 999_999 }),
      };
    });
    expect(outcomes.unknown).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: 'Unknown API method: fs.readFile' },
    });
    expect(outcomes.missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    await page.evaluate(() => (window.location.hash = '#/skill/999999'));
    await page.locator('.error-note[data-code="NOT_FOUND"]').waitFor();
  });

  it('saves an evaluation export where the native save dialog says, and writes nothing when it is cancelled', async () => {
    await core['settings.update']({ patch: { selection: { preset: 'offline' } } });
    await core['states.import']({ path: sampleStates });
    const tasks = readFileSync(sampleTasks, 'utf8');
    const two = path.join(dataDir, 'two-tasks.jsonl');
    writeFileSync(two, tasks.split('\n').slice(0, 2).join('\n'));
    const setId = (await core['labels.import']({ path: two, name: 'two sample tasks' })).id;
    const job = await core['eval.run']({ setId, variants: ['full'], k: [1] });
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    const runId = (await core['eval.list']({}))[0]!.runId;

    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByRole('button', { name: new RegExp(`^#${runId} `) }).click();
    await page.getByTestId('comparison-table').waitFor();

    dialogAnswer = null;
    await page.getByRole('button', { name: 'Markdown', exact: true }).click();
    await expect.poll(() => dialogAsked.length).toBe(1);
    expect(dialogAsked[0]).toEqual({
      defaultPath: `evaluation-${runId}.md`,
      filters: [{ name: 'Markdown', extensions: ['md'] }],
    });
    expect(await page.getByTestId('export-saved').count()).toBe(0);

    const target = path.join(dataDir, 'chosen', 'my-export.csv');
    mkdirSync(path.dirname(target), { recursive: true });
    dialogAnswer = target;
    await page.getByRole('button', { name: 'CSV', exact: true }).click();
    await expect.poll(() => page.getByTestId('export-saved').textContent()).toBe(`saved ${target}`);
    expect(existsSync(target)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe((await core['eval.export']({ runId, format: 'csv' })).content);
  }, 120_000);

  it('saves the states where the native save dialog says, replacing the file it confirmed; none: no dialog', async () => {
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    dialogAsked.length = 0;
    const target = path.join(dataDir, 'chosen', 'states-for-ana.jsonl');
    writeFileSync(target, 'an older file the dialog asked to replace\n');
    dialogAnswer = target;
    // Nothing verified yet: nothing to save, and no dialog asks where.
    await panel.getByLabel('States to save').selectOption({ label: 'verified only' });
    await panel.getByRole('button', { name: 'Save states…' }).click();
    await expect
      .poll(() => panel.getByTestId('states-saved').textContent())
      .toBe('Nothing saved: no skill has states of that kind yet.');
    expect(dialogAsked).toEqual([]);
    await panel.getByLabel('States to save').selectOption({ label: 'all with states (parsed too)' });
    await panel.getByRole('button', { name: 'Save states…' }).click();
    await expect
      .poll(() => panel.getByTestId('states-saved').textContent())
      .toBe(`Saved the states of 48 skills to ${target}.`);
    expect(dialogAsked).toEqual([
      { defaultPath: 'states.jsonl', filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }] },
    ]);
    expect(readFileSync(target, 'utf8')).toBe((await core['states.export']({})).content);
  }, 60_000);
});
