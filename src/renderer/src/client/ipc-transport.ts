// Desktop mode: calls go through the preload's window.curator bridge.
import type { CuratorBridge } from '../../../preload/bridge';
import type { Transport } from './transport';

declare global {
  interface Window {
    curator?: CuratorBridge;
  }
}

export function ipcTransport(bridge: CuratorBridge): Transport {
  return {
    kind: 'ipc',
    invoke: (method, req) => bridge.invoke(method, req as never),
    subscribe: (listener) => bridge.onEvent(listener),
  };
}
