// Events the core pushes to every host (IPC, SSE, CLI progress).
import type { JobInfo } from './jobs';

export type CuratorEvent =
  | { type: 'job.updated'; job: JobInfo }
  | { type: 'library.changed'; reason: string }
  | { type: 'states.changed'; skillIds: number[] }
  | { type: 'models.changed' }
  /** A selection run with a requestId: pairs scored so far of the estimated most. */
  | { type: 'select.progress'; requestId: string; done: number; total: number; message: string };

export type CuratorEventListener = (event: CuratorEvent) => void;
