// One set-up for the suites that drive the browser mode in Chromium. describeInChromium runs a suite where Chromium is
// (and fails it under CI where it is not); useBrowserMode registers the hooks that serve the renderer from the real core
// on a fresh data folder, open a page, keep a picture of a failed test, and close it all afterwards.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { CoreOptions } from '../../src/core';
import {
  chromiumOrSkip,
  ensureRendererBuilt,
  launchChromium,
  screenshot,
  screenshotDir,
  startBrowserModeServer,
  watchPageProblems,
  type BrowserModeServer,
} from './harness';

/** A suite that needs Chromium: it runs where Chromium is; otherwise a loud skip, or under CI=true a failed run. */
export function describeInChromium(title: string, suite: () => void): void {
  describe.runIf(chromiumOrSkip())(title, suite);
}

type PageOptions = NonNullable<Parameters<Browser['newPage']>[0]>;

export interface BrowserModeOptions {
  /** Names the suite's pictures of failed tests: test-output/screenshots/failed-<name>-<test>.png. */
  name: string;
  /** Default 1280×860. */
  viewport?: { width: number; height: number };
  /** The page's default timeout for actions and waits; default 20 s. */
  timeoutMs?: number;
  /** More options for the page than its viewport, e.g. `{ acceptDownloads: true }`. */
  pageOptions?: Omit<PageOptions, 'viewport'>;
  /** Options for the core; a function is called in beforeAll, so it may make the folders it names. */
  coreOptions?: Partial<CoreOptions> | (() => Partial<CoreOptions>);
  /** Puts what the suite needs into the core (and starts its other servers) once it runs, before Chromium starts. */
  prepare?: (server: BrowserModeServer) => Promise<void>;
  /**
   * Opens the app before the first test: `true` at the address with the token, once the top bar shows; a hash such as
   * '#/jobs' then goes to that screen. Without it, the tests open the page themselves.
   */
  open?: true | `#/${string}`;
  /** With `open`: a selector to wait for once the screen is open. */
  ready?: string;
  /** Closes and removes what `prepare` (or `coreOptions`) made, after the browser and the server are closed. */
  cleanup?: () => unknown;
  /** How long the set-up may take; default: the config's hookTimeout. */
  setupTimeoutMs?: number;
}

/** What the set-up made, for the tests and hooks of the suite (not for its body: they do not exist yet then). */
export interface BrowserModeSession {
  readonly server: BrowserModeServer;
  readonly browser: Browser;
  readonly page: Page;
  /** The page's errors, console errors and CSP violations so far (see watchPageProblems). */
  readonly problems: string[];
}

/** Registers the suite's beforeAll, afterEach and afterAll; call it in the body of a describeInChromium. */
export function useBrowserMode(options: BrowserModeOptions): BrowserModeSession {
  let server: BrowserModeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let problems: string[] | undefined;

  beforeAll(async () => {
    const renderer = await ensureRendererBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    const coreOptions =
      typeof options.coreOptions === 'function' ? options.coreOptions() : options.coreOptions;
    server = await startBrowserModeServer(renderer, coreOptions);
    await options.prepare?.(server);
    browser = await launchChromium();
    page = await browser.newPage({
      ...options.pageOptions,
      viewport: options.viewport ?? { width: 1280, height: 860 },
    });
    page.setDefaultTimeout(options.timeoutMs ?? 20_000);
    problems = watchPageProblems(page);
    if (options.open) {
      await page.goto(server.pageUrl);
      await page.locator('.topbar').waitFor();
      if (options.open !== true) await page.evaluate((hash) => (window.location.hash = hash), options.open);
      if (options.ready) await page.locator(options.ready).first().waitFor();
    }
  }, options.setupTimeoutMs);

  // A failed test leaves a picture of the page and what it logged, to tell a slow backend from a broken screen.
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail' || !page) return;
    console.log(`Failed at ${page.url()}; last page messages: ${JSON.stringify(problems?.slice(-5))}`);
    const test = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50);
    await screenshot(page, `failed-${options.name}-${test}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await options.cleanup?.();
  });

  const made = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`The browser-mode set-up has not made ${what} (yet): use it in a test.`);
    return value;
  };
  return {
    get server() {
      return made(server, 'the server');
    },
    get browser() {
      return made(browser, 'the browser');
    },
    get page() {
      return made(page, 'the page');
    },
    get problems() {
      return made(problems, 'the problem list');
    },
  };
}
