// The preload: exposes window.curator (invoke + events) for the methods of the contract only, never ipcRenderer itself.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { isApiMethod } from '../shared/api';
import type { CuratorEvent } from '../shared/events';
import {
  eventChannel,
  invokeChannel,
  pickPathChannel,
  saveDialogChannel,
  type CuratorBridge,
  type InvokeOutcome,
} from './bridge';

const bridge: CuratorBridge = {
  invoke(method, req) {
    if (!isApiMethod(method)) {
      const outcome: InvokeOutcome = {
        ok: false,
        error: { code: 'INVALID_ARGUMENT', message: `Unknown API method: ${String(method)}` },
      };
      return Promise.resolve(outcome) as ReturnType<CuratorBridge['invoke']>;
    }
    return ipcRenderer.invoke(invokeChannel, method, req);
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, data: CuratorEvent) => listener(data);
    ipcRenderer.on(eventChannel, forward);
    return () => {
      ipcRenderer.removeListener(eventChannel, forward);
    };
  },
  desktop: {
    pickPath: (kind) => ipcRenderer.invoke(pickPathChannel, kind === 'file' ? 'file' : 'folder'),
    pathForFile: (file) => webUtils.getPathForFile(file),
    saveDialog: (req) => ipcRenderer.invoke(saveDialogChannel, req),
  },
};

contextBridge.exposeInMainWorld('curator', bridge);
