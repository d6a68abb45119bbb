// The app's side of the model worker: a request queue (one request in the worker at a time), cancellation, and
// restart after a crash. A caller never hangs: a dead worker fails its request with MODEL_ERROR and the next request
// starts a fresh worker.
import { CuratorError } from '../../../shared/errors';
import type { Logger } from '../../logger';
import type { PaddingStats } from '../onnx/batches';
import type { ProgressReport } from '../ports';
import type { SpawnWorker, WorkerChannel, WorkerToHost, WorkRequest } from './protocol';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (p: ProgressReport) => void;
}

export interface CallResult<T> {
  value: T;
  stats?: PaddingStats;
}

export interface ModelWorkerHost {
  call<T>(request: WorkRequest, options?: CallOptions): Promise<CallResult<T>>;
  /** Process id of the running worker, if one runs. */
  readonly pid: number | undefined;
  /** Fails queued requests, stops the worker. */
  close(): void;
}

export interface ModelWorkerHostOptions {
  spawn: SpawnWorker;
  logger?: Logger;
  /** How long a cancelled request may keep the worker busy (one batch) before the worker is killed. */
  cancelGraceMs?: number;
}

interface Job {
  id: number;
  request: WorkRequest;
  options: CallOptions;
  resolve: (r: CallResult<unknown>) => void;
  reject: (e: CuratorError) => void;
  /** The caller was answered (cancelled); the worker's late reply is only awaited to free it. */
  abandoned: boolean;
  detach: () => void;
}

function describe(request: WorkRequest): string {
  const folder = 'spec' in request ? request.spec.folder : '';
  const what = request.type === 'embed' ? `embedding ${request.texts.length} texts` : request.type;
  return request.type === 'score'
    ? `scoring ${request.pairs.length} pairs with ${folder}`
    : `${what} with ${folder}`;
}

export function createModelWorkerHost(options: ModelWorkerHostOptions): ModelWorkerHost {
  const queue: Job[] = [];
  let current: Job | undefined;
  let channel: WorkerChannel | undefined;
  let nextId = 1;
  let graceTimer: NodeJS.Timeout | undefined;
  let closed = false;

  function start(): WorkerChannel {
    const ch = options.spawn();
    ch.onMessage((m) => {
      if (ch === channel) onMessage(m);
    });
    ch.onExit((reason) => {
      if (ch !== channel) return;
      channel = undefined;
      onWorkerExit(reason);
    });
    options.logger?.info('model worker started', { pid: ch.pid });
    return ch;
  }

  function settle(): void {
    clearTimeout(graceTimer);
    graceTimer = undefined;
    current?.detach();
    current = undefined;
    pump();
  }

  function onMessage(m: WorkerToHost): void {
    const job = current;
    if (!job || m.id !== job.id) return;
    if (m.type === 'progress') {
      if (!job.abandoned) job.options.onProgress?.({ done: m.done, total: m.total });
      return;
    }
    if (m.type === 'result') {
      if (!job.abandoned) job.resolve({ value: m.value, stats: m.stats });
    } else if (m.error.code === 'CANCELLED') {
      options.logger?.info('model worker stopped a cancelled request', {
        request: describe(job.request),
        ...detailsOf(m.error.details),
      });
      if (!job.abandoned) job.reject(new CuratorError('CANCELLED', m.error.message, m.error.details));
    } else if (!job.abandoned) {
      job.reject(new CuratorError(m.error.code, m.error.message, m.error.details));
    }
    settle();
  }

  function onWorkerExit(reason: string): void {
    const job = current;
    options.logger?.warn('model worker exited', { reason, request: job ? describe(job.request) : undefined });
    if (job && !job.abandoned) {
      job.reject(
        new CuratorError(
          'MODEL_ERROR',
          `The model worker stopped (${reason}) while ${describe(job.request)}; it may have run out of memory. ` +
            'The next request starts a new worker.',
          { reason },
        ),
      );
    }
    settle();
  }

  function pump(): void {
    if (current || closed) return;
    const job = queue.shift();
    if (!job) return;
    current = job;
    try {
      channel ??= start();
      channel.send({ ...job.request, id: job.id });
    } catch (error) {
      job.reject(new CuratorError('MODEL_ERROR', `Could not start the model worker: ${String(error)}`));
      settle();
    }
  }

  function cancel(job: Job): void {
    job.reject(new CuratorError('CANCELLED', 'Cancelled'));
    if (job !== current) {
      queue.splice(queue.indexOf(job), 1);
      job.detach();
      return;
    }
    job.abandoned = true;
    channel?.send({ type: 'cancel', id: job.id });
    graceTimer = setTimeout(() => {
      options.logger?.warn('model worker did not stop a cancelled request in time; killing it', {
        pid: channel?.pid,
      });
      channel?.kill();
    }, options.cancelGraceMs ?? 30_000);
  }

  return {
    get pid() {
      return channel?.pid;
    },
    call<T>(request: WorkRequest, callOptions: CallOptions = {}): Promise<CallResult<T>> {
      if (closed) return Promise.reject(new CuratorError('UNAVAILABLE', 'The model worker host is closed'));
      if (callOptions.signal?.aborted) return Promise.reject(new CuratorError('CANCELLED', 'Cancelled'));
      return new Promise<CallResult<T>>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          request,
          options: callOptions,
          resolve: resolve as (r: CallResult<unknown>) => void,
          reject,
          abandoned: false,
          detach: () => callOptions.signal?.removeEventListener('abort', onAbort),
        };
        const onAbort = () => cancel(job);
        callOptions.signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(job);
        pump();
      });
    },
    close() {
      closed = true;
      for (const job of queue.splice(0))
        job.reject(new CuratorError('UNAVAILABLE', 'The model worker host is closed'));
      if (current && !current.abandoned)
        current.reject(new CuratorError('UNAVAILABLE', 'The model worker host is closed'));
      current = undefined;
      clearTimeout(graceTimer);
      const ch = channel;
      channel = undefined;
      ch?.kill();
    },
  };
}

function detailsOf(details: unknown): Record<string, unknown> {
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {};
}
