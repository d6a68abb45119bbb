// Watches folder sources with chokidar. A change never touches the library: after a quiet moment the folder is
// scanned against the library and what differs is stored as the source's pending update, for the curator to apply.
// chokidar loads with the first watch, not with the core: a host with no watched folder starts without it.
// A watched folder that is deleted is not a dead watch: the settle runs at once (the scan then reports every skill
// removed), the watch waits for the folder by checking it every `pollMs`, and when it is back chokidar starts again and
// the folder is scanned again. Only a watch that cannot start again says 'stopped'.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';

let chokidar: Promise<typeof import('chokidar')> | undefined;

/** 'watching': chokidar runs; 'waiting': the folder is gone and the watch checks for its return; 'stopped': it gave up. */
export type FolderWatchState = 'watching' | 'waiting' | 'stopped';

export interface FolderWatchStatus {
  state: FolderWatchState;
  /** Why, for 'waiting' and 'stopped'. */
  message: string | null;
}

export interface FolderWatches {
  /**
   * Resolves once the watcher is ready (chokidar's initial scan is done, so a change made after this is seen), or once
   * it waits for a missing folder; rejects only when chokidar cannot load.
   */
  start(sourceId: number, folder: string): Promise<void>;
  stop(sourceId: number): Promise<void>;
  has(sourceId: number): boolean;
  status(sourceId: number): FolderWatchStatus | undefined;
  close(): Promise<void>;
}

export interface FolderWatchOptions {
  /** How often a watch whose folder is gone checks for it (ms). */
  pollMs?: number;
  /** Runs when a watch's state changes (after the state is set). */
  onState?: (sourceId: number, status: FolderWatchStatus) => void;
}

interface Watch {
  folder: string;
  watcher: FSWatcher | null;
  /** Settles once the first watcher is ready (or the watch waits, or was stopped before chokidar loaded). */
  created: Promise<void>;
  timer: NodeJS.Timeout | null;
  poll: NodeJS.Timeout | null;
  /** True while a poll found the folder and chokidar is starting on it again. */
  arming: boolean;
  running: Promise<void>;
  status: FolderWatchStatus;
  stopped: boolean;
}

const CLOSE_LATER_MS = 200;

const isFolder = (folder: string) =>
  fsp.stat(folder).then(
    (st) => st.isDirectory(),
    () => false,
  );

/** `onSettled` runs once per burst of changes, `quietMs` after the last one, never twice at once for a source. */
export function createFolderWatches(
  onSettled: (sourceId: number) => Promise<void>,
  quietMs = 400,
  options: FolderWatchOptions = {},
): FolderWatches {
  const pollMs = options.pollMs ?? 1000;
  const watchers = new Map<number, Watch>();

  const setStatus = (sourceId: number, entry: Watch, status: FolderWatchStatus) => {
    entry.status = status;
    if (!entry.stopped) options.onState?.(sourceId, status);
  };
  /** Queues a settle: first a check that the folder is still there (a deletion chokidar did not report is seen). */
  const settle = (sourceId: number, entry: Watch) => {
    entry.running = entry.running
      .then(async () => {
        if (entry.stopped) return;
        // Gone without chokidar saying so: `lost` queues the settle that reports it.
        if (entry.status.state === 'watching' && !(await isFolder(entry.folder)))
          return lost(sourceId, entry);
        if (entry.stopped) return;
        await onSettled(sourceId);
      })
      .catch(() => undefined);
  };
  const schedule = (sourceId: number, entry: Watch) => {
    if (entry.stopped) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      settle(sourceId, entry);
    }, quietMs);
  };
  /** The folder went: chokidar closes, the poll starts (it keeps the process alive too), the settle runs at once. */
  const lost = (sourceId: number, entry: Watch) => {
    if (entry.stopped || entry.status.state !== 'watching') return;
    startPolling(sourceId, entry);
    // chokidar is still handling the deletion when it reports it; closing it in that moment can leave an fs watch open
    // (and the process alive), so it closes once that is done.
    const watcher = entry.watcher;
    entry.watcher = null;
    if (watcher) setTimeout(() => void watcher.close().catch(() => undefined), CLOSE_LATER_MS);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    setStatus(sourceId, entry, {
      state: 'waiting',
      message: `The folder ${entry.folder} is gone; the watch waits for it to come back`,
    });
    settle(sourceId, entry);
  };
  const startPolling = (sourceId: number, entry: Watch) => {
    if (entry.poll) return;
    entry.poll = setInterval(() => {
      if (entry.arming || entry.stopped) return;
      entry.arming = true;
      void isFolder(entry.folder)
        .then(async (back) => {
          if (!back || entry.stopped) return;
          clearInterval(entry.poll!);
          entry.poll = null;
          try {
            await arm(sourceId, entry);
          } catch (error) {
            if (entry.stopped) return;
            setStatus(sourceId, entry, {
              state: 'stopped',
              message: `The folder ${entry.folder} came back but could not be watched again: ${String(error)}`,
            });
            return;
          }
          if (entry.status.state === 'watching') settle(sourceId, entry);
        })
        .finally(() => {
          entry.arming = false;
        });
    }, pollMs);
  };
  /** Starts chokidar on the folder and waits for its 'ready'; a folder that is not there makes the watch wait. */
  const arm = async (sourceId: number, entry: Watch) => {
    const { watch } = await (chokidar ??= import('chokidar'));
    if (entry.stopped) return;
    if (!(await isFolder(entry.folder))) {
      entry.status = { state: 'watching', message: null };
      lost(sourceId, entry);
      return;
    }
    const root = path.resolve(entry.folder);
    const watcher = watch(entry.folder, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (p) => /[\\/]\.git([\\/]|$)/.test(p),
    });
    entry.watcher = watcher;
    watcher.on('all', (event, p) => {
      if (entry.watcher !== watcher) return;
      if (event === 'unlinkDir' && path.resolve(p) === root) lost(sourceId, entry);
      else schedule(sourceId, entry);
    });
    watcher.on('error', () => {
      if (entry.watcher !== watcher) return;
      void isFolder(entry.folder).then((there) => {
        if (!there && entry.watcher === watcher) lost(sourceId, entry);
      });
    });
    await new Promise<void>((resolve) => {
      watcher.once('ready', () => resolve());
      watcher.once('error', () => resolve());
    });
    if (entry.stopped) {
      entry.watcher = null;
      await watcher.close();
      return;
    }
    const wasWaiting = entry.status.state !== 'watching';
    entry.status = { state: 'watching', message: null };
    // Deleted while chokidar started: it may not say so.
    if (!(await isFolder(entry.folder))) lost(sourceId, entry);
    else if (wasWaiting) setStatus(sourceId, entry, entry.status);
  };

  return {
    start(sourceId, folder) {
      const existing = watchers.get(sourceId);
      if (existing && existing.status.state !== 'stopped') return existing.created;
      if (existing) {
        watchers.delete(sourceId);
        existing.stopped = true;
        if (existing.poll) clearInterval(existing.poll);
      }
      const entry: Watch = {
        folder,
        watcher: null,
        created: Promise.resolve(),
        timer: null,
        poll: null,
        arming: false,
        running: Promise.resolve(),
        status: { state: 'watching', message: null },
        stopped: false,
      };
      watchers.set(sourceId, entry);
      entry.created = arm(sourceId, entry);
      // A watch that could not start is not kept as one: `has` says false, and a later start tries again.
      entry.created.catch(() => {
        if (watchers.get(sourceId) === entry) watchers.delete(sourceId);
        entry.stopped = true;
        if (entry.poll) clearInterval(entry.poll);
        chokidar = undefined;
      });
      return entry.created;
    },
    async stop(sourceId) {
      const entry = watchers.get(sourceId);
      if (!entry) return;
      watchers.delete(sourceId);
      entry.stopped = true;
      if (entry.timer) clearTimeout(entry.timer);
      if (entry.poll) clearInterval(entry.poll);
      await entry.created.catch(() => undefined);
      await entry.watcher?.close();
      entry.watcher = null;
      await entry.running;
    },
    has: (sourceId) => watchers.has(sourceId),
    status: (sourceId) => {
      const entry = watchers.get(sourceId);
      return entry ? { ...entry.status } : undefined;
    },
    async close() {
      await Promise.all([...watchers.keys()].map((id) => this.stop(id)));
    },
  };
}
