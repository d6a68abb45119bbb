// The e2e harness: builds the renderer when it is missing or older than its sources, serves it from the real core on a
// fresh data folder, and drives Debian's Chromium through playwright-core.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createCore, type Core, type CoreOptions } from '../../src/core';
import { requireOrSkip } from '../fixtures/require-or-skip';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const rendererDir = path.join(repoRoot, 'out', 'renderer');
export const screenshotDir = path.join(repoRoot, 'test-output', 'screenshots');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** For `describe.runIf`: Chromium is there; otherwise a loud skip, or under CI=true a failed run. */
export function chromiumOrSkip(): boolean {
  return requireOrSkip(
    existsSync(chromiumPath),
    `no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function rendererIsFresh(): boolean {
  const index = path.join(rendererDir, 'index.html');
  if (!existsSync(index)) return false;
  const sources = Math.max(
    newestMtime(path.join(repoRoot, 'src', 'renderer')),
    newestMtime(path.join(repoRoot, 'src', 'shared')),
    newestMtime(path.join(repoRoot, 'src', 'preload')),
    statSync(path.join(repoRoot, 'vite.web.config.ts')).mtimeMs,
  );
  return statSync(index).mtimeMs > sources;
}

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(repoRoot, 'out', '.renderer-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker holds it; a lock older than five minutes is left from a crash.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds out/renderer with the same config as `npm run build:web` unless it is newer than every source it uses, and
 * returns a private copy to serve: test files run in parallel (and other checkouts' runs may rebuild out/renderer),
 * so one build happens under a lock and no test serves files another is replacing.
 */
export async function ensureRendererBuilt(): Promise<string> {
  return withBuildLock(async () => {
    if (!rendererIsFresh()) {
      const { build } = await import('vite');
      await build({ configFile: path.join(repoRoot, 'vite.web.config.ts'), logLevel: 'warn' });
    }
    const snapshot = mkdtempSync(path.join(os.tmpdir(), 'curator-renderer-'));
    cpSync(rendererDir, snapshot, { recursive: true });
    return snapshot;
  });
}

export interface BrowserModeServer {
  core: Core;
  host: HttpHost;
  dataDir: string;
  /** The address a user opens: the page with the token in its hash. */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startBrowserModeServer(
  servedRenderer: string,
  coreOptions: Partial<CoreOptions> = {},
): Promise<BrowserModeServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-'));
  const core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources'), ...coreOptions });
  const host = await startHttpHost({
    core,
    port: 0,
    rendererDir: servedRenderer,
    uploadDir: path.join(dataDir, 'uploads'),
  });
  return {
    core,
    host,
    dataDir,
    pageUrl: `${host.url}/#token=${host.token}`,
    close: async () => {
      await host.close();
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(servedRenderer, { recursive: true, force: true });
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Collects what would tell a user something is broken: page errors, console errors, CSP violations. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Screenshots in the light and the dark theme, with `focus` (a selector) scrolled to the top of the view. */
export async function inBothThemes(page: Page, name: string, focus?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    if (focus)
      await page
        .locator(focus)
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, `${name}-${scheme}`);
  }
}
