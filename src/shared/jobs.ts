// Long work is a job: an id, a durable row, progress events, cancel, resume after a crash.

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

export interface JobProgress {
  done: number;
  total: number;
  /** Items that failed so far (a job can finish with some). */
  failed?: number;
  /** What is being worked on, in words. */
  message?: string;
  /** Seconds left, estimated from the rate so far. */
  etaSeconds?: number;
  /** Counters a job reports (tokens, cost, ...). */
  counters?: Record<string, number>;
}

export interface JobInfo {
  id: string;
  kind: string;
  status: JobStatus;
  params: unknown;
  progress: JobProgress;
  result?: unknown;
  error?: { code: string; message: string; details?: unknown };
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export function isFinished(status: JobStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled' || status === 'interrupted';
}
