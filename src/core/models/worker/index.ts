// The model worker as the app sees it: a host over a swappable transport, and the ports backed by it.
export { createModelWorkerHost, type ModelWorkerHost, type ModelWorkerHostOptions } from './host';
export { forkModelWorker, type ForkWorkerOptions } from './fork-channel';
export {
  createWorkerCrossEncoder,
  createWorkerEmbedder,
  verifyInWorker,
  type WorkerCrossEncoder,
  type WorkerEmbedder,
} from './worker-scorers';
export type { HostToWorker, SpawnWorker, WorkerChannel, WorkerPort, WorkerToHost } from './protocol';
