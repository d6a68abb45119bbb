// Electron main process: lifecycle and wiring only. The domain is the core; this hands it paths, secrets and the
// model worker, exposes it over IPC and forwards its events to the window.
import { app, BrowserWindow, dialog, ipcMain } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createCore,
  resumeFolderWatches,
  resumeLexicalStatsSoon,
  resumeLibraryConversion,
  type Core,
} from '../core';
import { createLogger } from '../core/logger';
import { createOnnxEngineFactory } from '../core/models/onnx-engine-factory';
import { createRemoteEngineFactory } from '../core/models/remote/remote-engine-factory';
import { eventChannel, pickPathChannel } from '../preload/bridge';
import { registerCuratorIpc } from './ipc';
import { registerSaveDialog } from './save-dialog';
import { utilityProcessWorker } from './model-worker';
import { dbOptionsFor } from './native-paths';
import { safeStorageSecrets } from './secrets';
import { appOrigin, createMainWindow, installContentSecurityPolicy, type WindowTarget } from './window';

const here = path.dirname(fileURLToPath(import.meta.url));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let core: Core | null = null;
  let window: BrowserWindow | null = null;

  const target: WindowTarget = {
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererIndex: path.join(here, '../renderer/index.html'),
    preload: path.join(here, '../preload/index.cjs'),
  };

  /** ONNX inference runs in a utilityProcess: an out-of-memory there ends the worker, not the app. */
  const spawnModelWorker = utilityProcessWorker(path.join(here, 'model-worker.js'));

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app.whenReady().then(() => {
    installContentSecurityPolicy(Boolean(target.devServerUrl));
    const userData = app.getPath('userData');
    const logger = createLogger(app.isPackaged ? 'info' : 'debug', (line) =>
      process.stderr.write(`${line}\n`),
    );
    core = createCore({
      dataDir: userData,
      resourcesDir: app.isPackaged
        ? path.join(process.resourcesPath, 'resources')
        : path.join(app.getAppPath(), 'resources'),
      secrets: safeStorageSecrets(userData),
      logger,
      engineFactories: {
        onnx: createOnnxEngineFactory({
          spawn: spawnModelWorker,
          logger,
          cacheDir: path.join(userData, 'cache'),
        }),
        remote: createRemoteEngineFactory({
          embeddingsApiKey: process.env.SKILL_CURATOR_EMBEDDINGS_API_KEY,
          rerankApiKey: process.env.SKILL_CURATOR_RERANK_API_KEY,
        }),
      },
      db: dbOptionsFor({
        isPackaged: app.isPackaged,
        appPath: app.getAppPath(),
        resourcesPath: process.resourcesPath,
        env: process.env,
      }),
    });
    resumeFolderWatches(core.context);
    resumeLibraryConversion(core.context);
    resumeLexicalStatsSoon(core.context);
    const origin = appOrigin(target);
    registerCuratorIpc(ipcMain, core, {
      isTrustedSender: (event) => event.senderFrame?.url.startsWith(origin) ?? false,
      onError: (method, error) => logger.warn(`${method} failed`, { error: String(error) }),
    });
    ipcMain.handle(pickPathChannel, async (_event, kind: unknown) => {
      const options: Electron.OpenDialogOptions =
        kind === 'file'
          ? { properties: ['openFile'], filters: [{ name: 'Skills', extensions: ['md', 'zip', 'jsonl'] }] }
          : { properties: ['openDirectory'] };
      const picked = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    });
    registerSaveDialog(
      ipcMain,
      (asked) => {
        // Exports write to the chosen path with overwrite: Linux asks before replacing a file only when told to.
        const options = { ...asked, properties: ['showOverwriteConfirmation' as const] };
        return window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options);
      },
      {
        isTrustedSender: (event) => event.senderFrame?.url.startsWith(origin) ?? false,
        defaultDir: () => app.getPath('documents'),
      },
    );
    core.onEvent((event) => {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(eventChannel, event);
    });
    window = createMainWindow(target);
    window.on('closed', () => {
      window = null;
    });
  });

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = null;
    void closing.close().finally(() => app.quit());
  });
}
