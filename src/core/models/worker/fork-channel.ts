// Spawns the model worker as a Node child process: the transport for the CLI, the server and tests.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostToWorker, SpawnWorker, WorkerChannel, WorkerToHost } from './protocol';

export interface ForkWorkerOptions {
  /**
   * The worker's entry script; default: node-entry.ts beside this file, run through tsx (development and tests), or
   * model-worker.mjs beside the compiled CLI (scripts/build-cli.mjs).
   */
  entry?: string;
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
}

function defaultEntry(): string {
  const compiled = !import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(compiled ? './model-worker.mjs' : './node-entry.ts', import.meta.url));
}

export function forkModelWorker(options: ForkWorkerOptions = {}): SpawnWorker {
  const entry = options.entry ?? defaultEntry();
  const execArgv = options.execArgv ?? (entry.endsWith('.ts') ? ['--import', 'tsx'] : []);
  return (): WorkerChannel => {
    const child = fork(entry, [], {
      execArgv,
      env: options.env,
      serialization: 'advanced', // Float32Array vectors cross as typed arrays
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return {
      pid: child.pid,
      send: (message: HostToWorker) => {
        if (child.connected) child.send(message);
      },
      onMessage: (listener) => child.on('message', (m) => listener(m as WorkerToHost)),
      onExit: (listener) => {
        child.once('exit', (code, signal) =>
          listener(signal ? `signal ${signal}` : `exit code ${code ?? '?'}`),
        );
        child.once('error', (error) => {
          listener(`spawn error: ${error.message}`);
          child.kill('SIGKILL');
        });
      },
      kill: () => child.kill('SIGKILL'),
    };
  };
}
