// Watches folder sources with chokidar. A change never touches the library: after a quiet moment the folder is
// scanned against the library and what differs is stored as the source's pending update, for the curator to apply.
import { watch, type FSWatcher } from 'chokidar';

export interface FolderWatches {
  start(sourceId: number, folder: string): void;
  stop(sourceId: number): Promise<void>;
  has(sourceId: number): boolean;
  close(): Promise<void>;
}

/** `onSettled` runs once per burst of changes, `quietMs` after the last one, never twice at once for a source. */
export function createFolderWatches(
  onSettled: (sourceId: number) => Promise<void>,
  quietMs = 400,
): FolderWatches {
  const watchers = new Map<
    number,
    { watcher: FSWatcher; timer: NodeJS.Timeout | null; running: Promise<void> }
  >();
  const schedule = (sourceId: number) => {
    const entry = watchers.get(sourceId);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.running = entry.running.then(() => onSettled(sourceId)).catch(() => undefined);
    }, quietMs);
  };
  return {
    start(sourceId, folder) {
      if (watchers.has(sourceId)) return;
      const watcher = watch(folder, {
        ignoreInitial: true,
        followSymlinks: false,
        ignored: (p) => /[\\/]\.git([\\/]|$)/.test(p),
      });
      watcher.on('all', () => schedule(sourceId));
      watchers.set(sourceId, { watcher, timer: null, running: Promise.resolve() });
    },
    async stop(sourceId) {
      const entry = watchers.get(sourceId);
      if (!entry) return;
      watchers.delete(sourceId);
      if (entry.timer) clearTimeout(entry.timer);
      await entry.watcher.close();
      await entry.running;
    },
    has: (sourceId) => watchers.has(sourceId),
    async close() {
      await Promise.all([...watchers.keys()].map((id) => this.stop(id)));
    },
  };
}
