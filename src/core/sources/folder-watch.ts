// Watches folder sources with chokidar. A change never touches the library: after a quiet moment the folder is
// scanned against the library and what differs is stored as the source's pending update, for the curator to apply.
// chokidar loads with the first watch, not with the core: a host with no watched folder starts without it.
import type { FSWatcher } from 'chokidar';

let chokidar: Promise<typeof import('chokidar')> | undefined;

export interface FolderWatches {
  /** Resolves once the watcher is set up; rejects only when chokidar cannot load. */
  start(sourceId: number, folder: string): Promise<void>;
  stop(sourceId: number): Promise<void>;
  has(sourceId: number): boolean;
  close(): Promise<void>;
}

interface Watch {
  watcher: FSWatcher | null;
  /** Settles once `watcher` is set (or the watch was stopped before chokidar loaded). */
  created: Promise<void>;
  timer: NodeJS.Timeout | null;
  running: Promise<void>;
}

/** `onSettled` runs once per burst of changes, `quietMs` after the last one, never twice at once for a source. */
export function createFolderWatches(
  onSettled: (sourceId: number) => Promise<void>,
  quietMs = 400,
): FolderWatches {
  const watchers = new Map<number, Watch>();
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
      const existing = watchers.get(sourceId);
      if (existing) return existing.created;
      const entry: Watch = {
        watcher: null,
        created: Promise.resolve(),
        timer: null,
        running: Promise.resolve(),
      };
      entry.created = (chokidar ??= import('chokidar')).then(({ watch }) => {
        if (watchers.get(sourceId) !== entry) return; // stopped while chokidar loaded
        entry.watcher = watch(folder, {
          ignoreInitial: true,
          followSymlinks: false,
          ignored: (p) => /[\\/]\.git([\\/]|$)/.test(p),
        });
        entry.watcher.on('all', () => schedule(sourceId));
      });
      // A watch that could not start is not kept as one: `has` says false, and a later start tries again.
      entry.created.catch(() => {
        if (watchers.get(sourceId) === entry) watchers.delete(sourceId);
        chokidar = undefined;
      });
      watchers.set(sourceId, entry);
      return entry.created;
    },
    async stop(sourceId) {
      const entry = watchers.get(sourceId);
      if (!entry) return;
      watchers.delete(sourceId);
      if (entry.timer) clearTimeout(entry.timer);
      await entry.created.catch(() => undefined);
      await entry.watcher?.close();
      await entry.running;
    },
    has: (sourceId) => watchers.has(sourceId),
    async close() {
      await Promise.all([...watchers.keys()].map((id) => this.stop(id)));
    },
  };
}
