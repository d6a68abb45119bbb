// Messages between the app and the model worker process. Plain data only: they cross a process boundary by
// structured clone (child_process "advanced" serialization, or Electron's utilityProcess).
import type { ModelRole } from '../../../shared/api/models';
import type { ApiErrorData } from '../../../shared/errors';
import type { OnnxDtype } from '../manager/dtype-device';
import type { PaddingStats } from '../onnx/batches';
import type { OnnxEmbedderOptions } from '../onnx/qwen3-embedder';
import type { OnnxCrossEncoderOptions } from '../onnx/qwen3-reranker';
import type { ScorePair } from '../ports';

export type ModelSpec =
  ({ role: 'embedder' } & OnnxEmbedderOptions) | ({ role: 'reranker' } & OnnxCrossEncoderOptions);

export type WorkRequest =
  | { type: 'load'; spec: ModelSpec }
  | {
      type: 'embed';
      spec: ModelSpec & { role: 'embedder' };
      texts: string[];
      role: 'query' | 'document';
      instruction?: string;
    }
  | {
      type: 'score';
      spec: ModelSpec & { role: 'reranker' };
      pairs: ScorePair[];
      instruction: string;
      maxTokens?: number;
    }
  | { type: 'unload'; spec: ModelSpec }
  | { type: 'verify'; folder: string; role: ModelRole; dtype?: OnnxDtype };

export type HostToWorker = (WorkRequest & { id: number }) | { type: 'cancel'; id: number };

export type WorkerToHost =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'result'; id: number; value: unknown; stats?: PaddingStats }
  | { type: 'error'; id: number; error: ApiErrorData };

/** The worker's side of the transport: child_process IPC under Node, `process.parentPort` under Electron. */
export interface WorkerPort {
  onMessage(listener: (message: HostToWorker) => void): void;
  send(message: WorkerToHost): void;
}

/** The app's side of the transport to one worker process; the host spawns a fresh one after a crash. */
export interface WorkerChannel {
  readonly pid: number | undefined;
  send(message: HostToWorker): void;
  onMessage(listener: (message: WorkerToHost) => void): void;
  /** Called once when the process ends, with a short reason ("signal SIGKILL", "exit code 1"). */
  onExit(listener: (reason: string) => void): void;
  kill(): void;
}

export type SpawnWorker = () => WorkerChannel;
