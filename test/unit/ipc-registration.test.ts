// The IPC host registers the whole contract on one channel and returns errors as data, never as rejections.
import { describe, expect, it } from 'vitest';
import { apiMethods, type ApiMethod, type CuratorApi } from '../../src/shared/api';
import { CuratorError } from '../../src/shared/errors';
import { invokeChannel, type InvokeOutcome } from '../../src/preload/bridge';
import { registerCuratorIpc, type IpcInvokeEventLike, type IpcMainLike } from '../../src/main/ipc';

/** The ipcMain contract: one handler per channel, invoke resolves with what the handler returns. */
class InProcessIpc implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
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

/** An API whose every method answers UNAVAILABLE, with a few real answers on top. */
function apiWith(overrides: Partial<CuratorApi>): CuratorApi {
  const base = Object.fromEntries(
    apiMethods.map((m: ApiMethod) => [
      m,
      async () => {
        throw new CuratorError('UNAVAILABLE', `${m} is not wired yet`);
      },
    ]),
  ) as unknown as CuratorApi;
  return { ...base, ...overrides };
}

const page: IpcInvokeEventLike = { senderFrame: { url: 'file:///app/out/renderer/index.html' } };

describe('registerCuratorIpc', () => {
  it('routes a contract method to the implementation and returns its result as data', async () => {
    const ipc = new InProcessIpc();
    registerCuratorIpc(
      ipc,
      apiWith({
        'library.stats': async () => ({
          skills: 3,
          sources: 1,
          withWarnings: 0,
          openConflicts: 0,
          byStatus: { unparsed: 3, parsed: 0, failed: 0, edited: 0, verified: 0 },
          dbBytes: 4096,
        }),
      }),
    );
    const outcome = await ipc.invoke(invokeChannel, page, 'library.stats', {});
    expect(outcome).toMatchObject({ ok: true, result: { skills: 3, byStatus: { unparsed: 3 } } });
  });

  it('rejects an unknown method as error data', async () => {
    const ipc = new InProcessIpc();
    registerCuratorIpc(ipc, apiWith({}));
    const outcome = await ipc.invoke(invokeChannel, page, 'fs.readFile', { path: '/etc/passwd' });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: 'Unknown API method: fs.readFile' },
    });
    const notAString = await ipc.invoke(invokeChannel, page, { toString: () => 'x' }, {});
    expect(notAString.ok).toBe(false);
  });

  it('returns a CuratorError thrown by the core as its code, message and details', async () => {
    const ipc = new InProcessIpc();
    registerCuratorIpc(
      ipc,
      apiWith({
        'library.get': async ({ id }) => {
          throw new CuratorError('NOT_FOUND', `No skill with id ${id}`, { id });
        },
      }),
    );
    expect(await ipc.invoke(invokeChannel, page, 'library.get', { id: 42 })).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No skill with id 42', details: { id: 42 } },
    });
    expect(await ipc.invoke(invokeChannel, page, 'jobs.list', {})).toEqual({
      ok: false,
      error: { code: 'UNAVAILABLE', message: 'jobs.list is not wired yet' },
    });
  });

  it('turns an unexpected exception into INTERNAL without its stack', async () => {
    const ipc = new InProcessIpc();
    const logged: string[] = [];
    registerCuratorIpc(
      ipc,
      apiWith({
        'jobs.list': async () => {
          throw new TypeError('boom');
        },
      }),
      { onError: (method) => logged.push(method) },
    );
    const outcome = await ipc.invoke(invokeChannel, page, 'jobs.list', {});
    expect(outcome).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'boom' } });
    expect(logged).toEqual(['jobs.list']);
  });

  it('refuses callers that are not the app page', async () => {
    const ipc = new InProcessIpc();
    registerCuratorIpc(ipc, apiWith({ 'jobs.list': async () => [] }), {
      isTrustedSender: (event) => event.senderFrame?.url.startsWith('file:///app/') ?? false,
    });
    expect((await ipc.invoke(invokeChannel, page, 'jobs.list', {})).ok).toBe(true);
    const foreign = await ipc.invoke(
      invokeChannel,
      { senderFrame: { url: 'https://evil.test/' } },
      'jobs.list',
      {},
    );
    expect(foreign).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('unregisters its channel', async () => {
    const ipc = new InProcessIpc();
    const dispose = registerCuratorIpc(ipc, apiWith({}));
    dispose();
    await expect(ipc.invoke(invokeChannel, page, 'jobs.list', {})).rejects.toThrow(/No handler/);
  });

  it('registers every method of the contract on one channel and routes each to its own implementation', async () => {
    const ipc = new InProcessIpc();
    const seen: [string, unknown][] = [];
    const echo = Object.fromEntries(
      apiMethods.map((m) => [
        m,
        async (req: unknown) => {
          seen.push([m, req]);
          return { method: m, req };
        },
      ]),
    ) as unknown as CuratorApi;
    registerCuratorIpc(ipc, echo);
    expect([...ipc.handlers.keys()]).toEqual([invokeChannel]);
    expect(apiMethods.length).toBeGreaterThan(20);
    for (const [i, m] of apiMethods.entries()) {
      expect(await ipc.invoke(invokeChannel, page, m, { i })).toEqual({
        ok: true,
        result: { method: m, req: { i } },
      });
    }
    expect(seen).toEqual(apiMethods.map((m, i) => [m, { i }]));
    // A call without a request gets an empty one.
    expect(await ipc.invoke(invokeChannel, page, apiMethods[0]!)).toEqual({
      ok: true,
      result: { method: apiMethods[0], req: {} },
    });
  });

  it('answers the failures of every method as data: a CuratorError keeps its code, anything else is INTERNAL', async () => {
    const curatorErrors = new InProcessIpc();
    registerCuratorIpc(curatorErrors, apiWith({}));
    const plainErrors = new InProcessIpc();
    const logged: string[] = [];
    registerCuratorIpc(
      plainErrors,
      Object.fromEntries(
        apiMethods.map((m) => [
          m,
          () => {
            throw new RangeError(`${m} broke`);
          },
        ]),
      ) as unknown as CuratorApi,
      { onError: (m) => logged.push(m) },
    );
    for (const m of apiMethods) {
      expect(await curatorErrors.invoke(invokeChannel, page, m, {})).toEqual({
        ok: false,
        error: { code: 'UNAVAILABLE', message: `${m} is not wired yet` },
      });
      expect(await plainErrors.invoke(invokeChannel, page, m, {})).toEqual({
        ok: false,
        error: { code: 'INTERNAL', message: `${m} broke` },
      });
    }
    expect(logged).toEqual([...apiMethods]);
  });

  it('an API object that lacks a method (a type error) answers that method as UNAVAILABLE and serves the rest', async () => {
    const ipc = new InProcessIpc();
    const { 'select.replay': _missing, ...incomplete } = apiWith({ 'jobs.list': async () => [] });
    // @ts-expect-error: 'select.replay' is missing, so this is not a CuratorApi.
    registerCuratorIpc(ipc, incomplete);
    expect(await ipc.invoke(invokeChannel, page, 'select.replay', { runId: 1 })).toEqual({
      ok: false,
      error: { code: 'UNAVAILABLE', message: 'select.replay is not implemented' },
    });
    expect(await ipc.invoke(invokeChannel, page, 'jobs.list', {})).toEqual({ ok: true, result: [] });
  });
});
