// The app window, locked down: isolated sandboxed renderer, strict CSP, no navigation away, no new windows.
import { BrowserWindow, session, shell } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy, devContentSecurityPolicy } from '../shared/csp';

export interface WindowTarget {
  /** The dev server during `npm run dev`, else the built index.html. */
  devServerUrl?: string;
  rendererIndex: string;
  preload: string;
}

/** The address prefix our own page lives under; anything else is foreign. */
export function appOrigin(target: WindowTarget): string {
  return target.devServerUrl
    ? `${new URL(target.devServerUrl).origin}/`
    : `${pathToFileURL(path.dirname(target.rendererIndex)).href}/`;
}

export function installContentSecurityPolicy(dev: boolean): void {
  const policy = dev ? devContentSecurityPolicy : contentSecurityPolicy;
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
  // The renderer never needs a camera, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
}

export function createMainWindow(target: WindowTarget): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Skill Curator',
    webPreferences: {
      preload: target.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  const origin = appOrigin(target);
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(origin)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  // Links in skills open in the user's browser, never inside the app.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  if (target.devServerUrl) void window.loadURL(target.devServerUrl);
  else void window.loadFile(target.rendererIndex);
  return window;
}
