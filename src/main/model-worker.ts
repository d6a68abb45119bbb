// The model worker as an Electron utilityProcess: inference off the main process, and an out-of-memory kills only it.
import { utilityProcess } from 'electron';
import type { HostToWorker, SpawnWorker, WorkerChannel, WorkerToHost } from '../core/models/worker/protocol';

export function utilityProcessWorker(entry: string): SpawnWorker {
  return (): WorkerChannel => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Skill Curator models', stdio: 'inherit' });
    let alive = true;
    return {
      get pid() {
        return child.pid;
      },
      send: (message: HostToWorker) => {
        if (alive) child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', (m: unknown) => listener(m as WorkerToHost)),
      onExit: (listener) =>
        child.once('exit', (code: number) => {
          alive = false;
          listener(`exit code ${code}`);
        }),
      kill: () => {
        alive = false;
        child.kill();
      },
    };
  };
}
