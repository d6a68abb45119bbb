// Registers the whole API contract on one IPC channel; the method list comes from apiMethods, errors travel as data.
import { apiMethods, isApiMethod, type ApiMethod, type CuratorApi } from '../shared/api';
import { toErrorData } from '../shared/errors';
import { invokeChannel, type InvokeOutcome } from '../preload/bridge';

/** The part of Electron's ipcMain this needs, so it can be tested without Electron. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcInvokeEventLike {
  senderFrame?: { url: string } | null;
}

export interface RegisterOptions {
  /** Rejects calls from frames that are not our own page (a navigated or injected frame). */
  isTrustedSender?: (event: IpcInvokeEventLike) => boolean;
  onError?: (method: string, error: unknown) => void;
}

type Handler = (req: unknown) => Promise<unknown>;

/**
 * The typed parameter is the check that no method is missing: an object without one of the contract's methods is not
 * a CuratorApi and does not compile here.
 */
export function registerCuratorIpc(
  ipc: IpcMainLike,
  api: CuratorApi,
  options: RegisterOptions = {},
): () => void {
  const handlers = new Map<ApiMethod, Handler>();
  for (const method of apiMethods) {
    const fn = api[method] as ((req: unknown) => Promise<unknown>) | undefined;
    // The type rules out a missing method; an object built at run time can still lack one: it answers UNAVAILABLE.
    if (typeof fn === 'function') handlers.set(method, (req) => fn.call(api, req));
  }

  ipc.handle(invokeChannel, async (event, method, req): Promise<InvokeOutcome> => {
    if (options.isTrustedSender && !options.isTrustedSender(event)) {
      return {
        ok: false,
        error: { code: 'UNAUTHORIZED', message: 'This page may not call the Skill Curator API.' },
      };
    }
    if (typeof method !== 'string' || !isApiMethod(method)) {
      return {
        ok: false,
        error: { code: 'INVALID_ARGUMENT', message: `Unknown API method: ${String(method)}` },
      };
    }
    const handler = handlers.get(method);
    if (!handler)
      return { ok: false, error: { code: 'UNAVAILABLE', message: `${method} is not implemented` } };
    try {
      return { ok: true, result: await handler(req ?? {}) };
    } catch (error) {
      options.onError?.(method, error);
      return { ok: false, error: toErrorData(error) };
    }
  });
  return () => ipc.removeHandler(invokeChannel);
}
