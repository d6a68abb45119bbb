// Runs long work as jobs: durable row, throttled progress events, AbortSignal, resume of interrupted jobs.
import { randomUUID } from 'node:crypto';
import { CuratorError, toErrorData } from '../../shared/errors';
import type { JobInfo, JobProgress, JobStatus } from '../../shared/jobs';
import { isFinished } from '../../shared/jobs';
import type { Db } from '../store/db';
import type { JobOwner } from './job-owner';
import { closeOwner, newOwner } from './job-owner';
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
  /** How often a running job's row says its owner is alive (default 5 s). */
  heartbeatMs?: number;
  /** A running job without a heartbeat for this long belongs to no one and may be resumed (default 60 s). */
  staleMs?: number;
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
  private readonly owner: JobOwner = newOwner();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    db: Db,
    private readonly options: JobRunnerOptions,
  ) {
    this.store = new JobStore(db, this.owner, options.staleMs ?? 60_000);
    this.throttleMs = options.throttleMs ?? 250;
    this.store.markInterrupted(this.now());
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 5_000).unref();
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

  /**
   * Runs an interrupted, failed or cancelled job again under the same id; items it finished are skipped.
   * A job that another live process is running is refused (CONFLICT).
   */
  resume(id: string): JobInfo {
    const live = this.running.get(id);
    if (live) return structuredClone(live.job);
    const kind = this.get(id).kind;
    if (!this.handlers.has(kind)) throw new CuratorError('INVALID_ARGUMENT', `No job kind "${kind}"`);
    const job = this.store.claim(id, this.now());
    this.launch(job);
    return structuredClone(job);
  }

  get(id: string): JobInfo {
    const live = this.running.get(id);
    if (live) return structuredClone(live.job);
    this.store.markInterrupted(this.now());
    const job = this.store.get(id);
    if (!job) throw new CuratorError('NOT_FOUND', `No job ${id}`);
    return job;
  }

  list(status?: JobStatus, limit = 100): JobInfo[] {
    this.store.markInterrupted(this.now());
    return this.store.list(status, limit).map((job) => {
      const live = this.running.get(job.id);
      return live ? structuredClone(live.job) : job;
    });
  }

  cancel(id: string): JobInfo {
    const live = this.running.get(id);
    if (!live) {
      const job = this.get(id);
      // Still running after get() judged its owner: another live process runs it, and only that one can stop it.
      if (job.status === 'running')
        throw new CuratorError('CONFLICT', `Job ${id} runs in another process; cancel it there`);
      return job;
    }
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
    clearInterval(this.heartbeat);
    closeOwner(this.owner);
  }

  private beat(): void {
    if (this.running.size === 0) return;
    try {
      this.store.heartbeat([...this.running.keys()]);
    } catch {
      // A busy or closed file: the next beat or progress write tries again.
    }
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
