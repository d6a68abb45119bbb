// Runs long work as jobs: durable row, throttled progress events, AbortSignal, resume of interrupted jobs.
import { randomUUID } from 'node:crypto';
import { CuratorError, toErrorData } from '../../shared/errors';
import type { JobInfo, JobProgress, JobStatus } from '../../shared/jobs';
import { isFinished } from '../../shared/jobs';
import type { Db } from '../store/db';
import { JobStore, type JobItem } from './job-store';

export type { JobItem } from './job-store';

export interface JobContext {
  jobId: string;
  signal: AbortSignal;
  /** Progress; throttled before it reaches listeners and the database. */
  report(progress: JobProgress): void;
  /** True when a previous run of this job finished the item (resume skips it). */
  isItemDone(key: string): boolean;
  markItem(key: string, status: 'done' | 'failed' | 'skipped', detail?: unknown): void;
  /** Every item earlier runs of this job marked, with its detail: a resumed job counts what they spent. */
  markedItems(): JobItem[];
}

export type JobHandler = (params: never, ctx: JobContext) => Promise<unknown>;

export interface JobRunnerOptions {
  clock: () => Date;
  onUpdate: (job: JobInfo) => void;
  /** Minimum gap between progress events of one job. */
  throttleMs?: number;
}

interface Running {
  job: JobInfo;
  controller: AbortController;
  done: Promise<void>;
  startedAt: number;
  startDone: number;
  lastEmit: number;
}

export class JobRunner {
  private readonly store: JobStore;
  private readonly handlers = new Map<string, (params: unknown, ctx: JobContext) => Promise<unknown>>();
  private readonly running = new Map<string, Running>();
  private readonly throttleMs: number;

  constructor(
    db: Db,
    private readonly options: JobRunnerOptions,
  ) {
    this.store = new JobStore(db);
    this.throttleMs = options.throttleMs ?? 250;
    this.store.markInterrupted(this.now());
  }

  register<P>(kind: string, handler: (params: P, ctx: JobContext) => Promise<unknown>): void {
    this.handlers.set(kind, handler as (params: unknown, ctx: JobContext) => Promise<unknown>);
  }

  start(kind: string, params: unknown): JobInfo {
    if (!this.handlers.has(kind)) throw new CuratorError('INVALID_ARGUMENT', `No job kind "${kind}"`);
    const now = this.now();
    const job: JobInfo = {
      id: randomUUID(),
      kind,
      status: 'running',
      params,
      progress: { done: 0, total: 0 },
      createdAt: now,
      updatedAt: now,
    };
    this.store.insert(job);
    this.launch(job);
    return structuredClone(job);
  }

  /** Runs an interrupted, failed or cancelled job again under the same id; items it finished are skipped. */
  resume(id: string): JobInfo {
    const job = this.get(id);
    if (this.running.has(id)) return job;
    if (job.status === 'done') throw new CuratorError('CONFLICT', 'This job has already finished');
    if (!this.handlers.has(job.kind)) throw new CuratorError('INVALID_ARGUMENT', `No job kind "${job.kind}"`);
    job.status = 'running';
    delete job.error;
    delete job.finishedAt;
    job.updatedAt = this.now();
    this.store.update(job);
    this.launch(job);
    return structuredClone(job);
  }

  get(id: string): JobInfo {
    const live = this.running.get(id);
    if (live) return structuredClone(live.job);
    const job = this.store.get(id);
    if (!job) throw new CuratorError('NOT_FOUND', `No job ${id}`);
    return job;
  }

  list(status?: JobStatus, limit = 100): JobInfo[] {
    return this.store.list(status, limit).map((job) => (this.running.has(job.id) ? this.get(job.id) : job));
  }

  cancel(id: string): JobInfo {
    const live = this.running.get(id);
    if (!live) return this.get(id);
    live.controller.abort();
    return structuredClone(live.job);
  }

  async wait(id: string, timeoutMs?: number): Promise<JobInfo> {
    const live = this.running.get(id);
    if (live) {
      if (timeoutMs === undefined) await live.done;
      else await Promise.race([live.done, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    }
    return this.get(id);
  }

  /** Cancels running jobs and waits for them to stop. */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort();
    await Promise.all(all.map((r) => r.done));
  }

  private launch(job: JobInfo): void {
    const handler = this.handlers.get(job.kind)!;
    const controller = new AbortController();
    const running: Running = {
      job,
      controller,
      done: Promise.resolve(),
      startedAt: Date.now(),
      startDone: job.progress.done,
      lastEmit: 0,
    };
    const ctx: JobContext = {
      jobId: job.id,
      signal: controller.signal,
      report: (progress) => this.progress(running, progress),
      isItemDone: (key) => this.store.isItemDone(job.id, key),
      markItem: (key, status, detail) => this.store.markItem(job.id, key, status, detail),
      markedItems: () => this.store.items(job.id),
    };
    this.running.set(job.id, running);
    this.emit(running, true);
    running.done = (async () => {
      try {
        // Yield once so start() returns before the handler's synchronous part runs.
        await new Promise((resolve) => setImmediate(resolve));
        const result = await handler(job.params, ctx);
        job.result = result;
        job.status = controller.signal.aborted ? 'cancelled' : 'done';
      } catch (error) {
        const data = toErrorData(error);
        job.status = controller.signal.aborted || data.code === 'CANCELLED' ? 'cancelled' : 'failed';
        job.error = data;
      } finally {
        job.finishedAt = this.now();
        delete job.progress.etaSeconds;
        this.running.delete(job.id);
        this.emit(running, true);
      }
    })();
  }

  private progress(running: Running, progress: JobProgress): void {
    const { job } = running;
    const next: JobProgress = { ...progress };
    if (next.etaSeconds === undefined && next.total > 0 && next.done > running.startDone) {
      const rate = (next.done - running.startDone) / ((Date.now() - running.startedAt) / 1000);
      if (rate > 0) next.etaSeconds = Math.round((next.total - next.done) / rate);
    }
    job.progress = next;
    if (Date.now() - running.lastEmit >= this.throttleMs) this.emit(running, false);
  }

  private emit(running: Running, force: boolean): void {
    const { job } = running;
    job.updatedAt = this.now();
    running.lastEmit = Date.now();
    this.store.update(job);
    if (force || !isFinished(job.status)) this.options.onUpdate(structuredClone(job));
  }

  private now(): string {
    return this.options.clock().toISOString();
  }
}
