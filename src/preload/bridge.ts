// What the preload hands the renderer as window.curator: channel names and the bridge's shape. Pure TS, no electron,
// so the renderer can import the types and the main process the channel names.
import type { ApiMethod, ApiRequest, ApiResponse } from '../shared/api';
import type { ApiErrorData } from '../shared/errors';
import type { CuratorEvent } from '../shared/events';

export const invokeChannel = 'curator:invoke';
export const eventChannel = 'curator:event';
export const pickPathChannel = 'curator:pick-path';
export const saveDialogChannel = 'curator:save-dialog';

/** Errors cross IPC as data: a rejected ipcRenderer.invoke would lose the code and details. */
export type InvokeOutcome<T = unknown> = { ok: true; result: T } | { ok: false; error: ApiErrorData };

export type PickKind = 'folder' | 'file';

export interface SaveDialogRequest {
  /** The file name the dialog proposes. */
  defaultName: string;
  filters?: { name: string; extensions: string[] }[];
}

export interface CuratorBridge {
  invoke<M extends ApiMethod>(method: M, req: ApiRequest<M>): Promise<InvokeOutcome<ApiResponse<M>>>;
  onEvent(listener: (event: CuratorEvent) => void): () => void;
  /** Desktop-only helpers that the browser cannot offer: a native file picker and the path of a dropped file. */
  desktop: {
    pickPath(kind: PickKind): Promise<string | null>;
    pathForFile(file: File): string;
    /** The native save dialog: the chosen path, or null when the user cancelled. */
    saveDialog(req: SaveDialogRequest): Promise<string | null>;
  };
}
