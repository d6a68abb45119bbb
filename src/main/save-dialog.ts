// The desktop save dialog behind the preload's desktop.saveDialog: checks what the page asks for, then asks Electron.
import path from 'node:path';
import { saveDialogChannel, type SaveDialogRequest } from '../preload/bridge';
import type { IpcInvokeEventLike, IpcMainLike } from './ipc';

/** The part of Electron's dialog.showSaveDialog this needs, bound to the window by the caller. */
export type ShowSaveDialog = (options: {
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}) => Promise<{ canceled: boolean; filePath?: string }>;

export interface SaveDialogOptions {
  isTrustedSender?: (event: IpcInvokeEventLike) => boolean;
  /** The folder the proposed file name is placed in (Electron's default is the working directory). */
  defaultDir?: () => string;
}

/** Only a bare file name and plain extensions reach the dialog: the page proposes a name, the user picks the place. */
export function saveDialogOptions(req: unknown, defaultDir = ''): Parameters<ShowSaveDialog>[0] {
  const { defaultName, filters } = (req ?? {}) as Partial<SaveDialogRequest>;
  const name = typeof defaultName === 'string' ? path.basename(defaultName) : '';
  const clean = Array.isArray(filters)
    ? filters
        .filter((f) => f && typeof f.name === 'string' && Array.isArray(f.extensions))
        .map((f) => ({
          name: f.name,
          extensions: f.extensions.filter((e) => typeof e === 'string' && /^[A-Za-z0-9*]+$/.test(e)),
        }))
    : [];
  return { defaultPath: defaultDir && name ? path.join(defaultDir, name) : name, filters: clean };
}

export function registerSaveDialog(
  ipc: IpcMainLike,
  show: ShowSaveDialog,
  options: SaveDialogOptions = {},
): () => void {
  ipc.handle(saveDialogChannel, async (event, req) => {
    if (options.isTrustedSender && !options.isTrustedSender(event)) return null;
    const picked = await show(saveDialogOptions(req, options.defaultDir?.()));
    return picked.canceled || !picked.filePath ? null : picked.filePath;
  });
  return () => ipc.removeHandler(saveDialogChannel);
}
