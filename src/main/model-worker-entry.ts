// Entry of the model worker inside Electron's utilityProcess: the same loop as the Node child, over parentPort.
import { runModelWorker } from '../core/models/worker/model-worker';
import type { HostToWorker, WorkerToHost } from '../core/models/worker/protocol';

const port = process.parentPort;
runModelWorker({
  onMessage: (listener) => port.on('message', (event) => listener(event.data as HostToWorker)),
  send: (message: WorkerToHost) => port.postMessage(message),
});
