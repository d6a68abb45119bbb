// Entry of the model worker as a Node child process (child_process.fork with IPC); Electron uses its own entry
// over process.parentPort with the same runModelWorker.
import { runModelWorker } from './model-worker';
import type { HostToWorker, WorkerToHost } from './protocol';

if (!process.send)
  throw new Error('The model worker must be started with an IPC channel (child_process.fork).');

runModelWorker({
  onMessage: (listener) => process.on('message', (m) => listener(m as HostToWorker)),
  send: (message: WorkerToHost) => process.send?.(message),
});
process.on('disconnect', () => process.exit(0));
