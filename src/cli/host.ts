// Opens the core for a CLI command: data folder and library file from options or the environment, key from env or key file.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Core } from '../core';
import { createCore } from '../core';
import type { SecretStore } from '../core/context';
import { createLogger } from '../core/logger';
import { createOnnxEngineFactory } from '../core/models/onnx-engine-factory';
import { createRemoteEngineFactory } from '../core/models/remote/remote-engine-factory';
import { forkModelWorker } from '../core/models/worker/fork-channel';

import { defaultDataDir, type GlobalOptions, resourcesDir } from './paths';

/** The CLI keeps the API key in the environment (SKILL_CURATOR_API_KEY) or a key file readable only by the user. */
function keyFileSecrets(dataDir: string): SecretStore {
  const file = path.join(dataDir, 'llm-api-key');
  return {
    getApiKey: async () => {
      if (process.env.SKILL_CURATOR_API_KEY) return process.env.SKILL_CURATOR_API_KEY;
      return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
    },
    setApiKey: async (key) => {
      if (key === null) {
        rmSync(file, { force: true });
        return;
      }
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, key, { mode: 0o600 });
      chmodSync(file, 0o600);
    },
    ...namedSecretFiles(path.join(dataDir, 'secrets')),
  };
}

/** Named secrets (Git tokens) as files readable only by the user, one per name. */
function namedSecretFiles(dir: string): Pick<SecretStore, 'getSecret' | 'setSecret'> {
  const fileOf = (name: string) => path.join(dir, name.replace(/[^A-Za-z0-9_.-]/g, '_'));
  return {
    getSecret: async (name) => (existsSync(fileOf(name)) ? readFileSync(fileOf(name), 'utf8') || null : null),
    setSecret: async (name, value) => {
      if (value === null) return void rmSync(fileOf(name), { force: true });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(fileOf(name), value, { mode: 0o600 });
      chmodSync(fileOf(name), 0o600);
    },
  };
}

/** readonly: unset opens read-only when the library is not writable; false makes that an error (writing commands). */
export function openCore(options: GlobalOptions, db: { readonly?: boolean } = {}): Core {
  const dataDir = path.resolve(options.data ?? defaultDataDir());
  const logger = createLogger(options.verbose ? 'debug' : 'warn', (line) =>
    process.stderr.write(line + '\n'),
  );
  return createCore({
    dataDir,
    dbFile: options.db ? path.resolve(options.db) : undefined,
    resourcesDir,
    db: db.readonly === undefined ? undefined : { readonly: db.readonly },
    secrets: keyFileSecrets(dataDir),
    logger,
    engineFactories: {
      // Inference runs in a child process, so the CLI and the HTTP host never block on it.
      onnx: createOnnxEngineFactory({
        spawn: forkModelWorker(),
        logger,
        cacheDir: path.join(dataDir, 'cache'),
      }),
      remote: createRemoteEngineFactory({
        embeddingsApiKey: process.env.SKILL_CURATOR_EMBEDDINGS_API_KEY,
        rerankApiKey: process.env.SKILL_CURATOR_RERANK_API_KEY,
      }),
    },
  });
}
