// The desktop save dialog's IPC handler: what reaches Electron's dialog, and what the page gets back.
import { describe, expect, it } from 'vitest';
import type { IpcInvokeEventLike, IpcMainLike } from '../../src/main/ipc';
import { registerSaveDialog, type ShowSaveDialog } from '../../src/main/save-dialog';
import { saveDialogChannel } from '../../src/preload/bridge';

class InProcessIpc implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return Promise.resolve(handler(event, ...args));
  }
}

const ours: IpcInvokeEventLike = { senderFrame: { url: 'file:///app/index.html' } };

function recordingDialog(answer: { canceled: boolean; filePath?: string }) {
  const asked: Parameters<ShowSaveDialog>[0][] = [];
  const show: ShowSaveDialog = async (options) => {
    asked.push(options);
    return answer;
  };
  return { asked, show };
}

describe('registerSaveDialog', () => {
  it('proposes the name in the default folder with the filters and returns the chosen path', async () => {
    const ipc = new InProcessIpc();
    const dialog = recordingDialog({ canceled: false, filePath: '/home/u/report.csv' });
    registerSaveDialog(ipc, dialog.show, { defaultDir: () => '/home/u/Documents' });
    const chosen = await ipc.invoke(saveDialogChannel, ours, {
      defaultName: 'evaluation-3.csv',
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
    expect(chosen).toBe('/home/u/report.csv');
    expect(dialog.asked).toEqual([
      { defaultPath: '/home/u/Documents/evaluation-3.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] },
    ]);
  });

  it('answers null when the user cancels', async () => {
    const ipc = new InProcessIpc();
    registerSaveDialog(ipc, recordingDialog({ canceled: true }).show);
    expect(await ipc.invoke(saveDialogChannel, ours, { defaultName: 'a.md' })).toBeNull();
  });

  it('keeps only a bare file name and plain extensions from the page', async () => {
    const ipc = new InProcessIpc();
    const dialog = recordingDialog({ canceled: true });
    registerSaveDialog(ipc, dialog.show, { defaultDir: () => '/docs' });
    await ipc.invoke(saveDialogChannel, ours, {
      defaultName: '../../etc/passwd',
      filters: [{ name: 'Any', extensions: ['md', '../x', 7] }, 'junk'],
    });
    await ipc.invoke(saveDialogChannel, ours, undefined);
    expect(dialog.asked).toEqual([
      { defaultPath: '/docs/passwd', filters: [{ name: 'Any', extensions: ['md'] }] },
      { defaultPath: '', filters: [] },
    ]);
  });

  it('never opens a dialog for a frame that is not our page', async () => {
    const ipc = new InProcessIpc();
    const dialog = recordingDialog({ canceled: false, filePath: '/x' });
    registerSaveDialog(ipc, dialog.show, {
      isTrustedSender: (event) => event.senderFrame?.url.startsWith('file:///app/') ?? false,
    });
    const answer = await ipc.invoke(
      saveDialogChannel,
      { senderFrame: { url: 'https://evil.example/' } },
      { defaultName: 'a.md' },
    );
    expect(answer).toBeNull();
    expect(dialog.asked).toEqual([]);
  });
});
