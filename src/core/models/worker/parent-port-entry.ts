// Entry of the model worker as an Electron utilityProcess: the same loop as under Node, over `process.parentPort`
// (a global Electron adds to the child process, so the core needs no electron import).
import { runModelWorker } from './model-worker';
import type { HostToWorker, WorkerToHost } from './protocol';

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) throw new Error('The model worker must be started as an Electron utilityProcess.');

runModelWorker({
  onMessage: (listener) => parentPort.on('message', (e) => listener(e.data as HostToWorker)),
  send: (message: WorkerToHost) => parentPort.postMessage(message),
});
