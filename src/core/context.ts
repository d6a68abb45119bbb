// What every domain service of the core receives: the store, jobs, events, settings and the injected dependencies.
import type { Engines } from './engines';
import type { EventBus } from './event-bus';
import type { JobRunner } from './jobs/job-runner';
import type { Logger } from './logger';
import type { SettingsStore } from './settings-store';
import type { Db } from './store/db';

/** Where secrets (the LLM API key) live: safeStorage in the app, an environment variable or key file in the CLI. */
export interface SecretStore {
  getApiKey(): Promise<string | null>;
  setApiKey(key: string | null): Promise<void>;
  /** Other named secrets (a Git source's token), kept the same way as the API key; hosts without them refuse tokens. */
  getSecret?(name: string): Promise<string | null>;
  setSecret?(name: string, value: string | null): Promise<void>;
}

export interface CorePaths {
  /** The app's data folder: the library file, models, caches. */
  dataDir: string;
  dbFile: string;
  modelsDir: string;
  /** Bundled resources (sample library, sample tasks). */
  resourcesDir: string;
}

export interface CoreContext {
  db: Db;
  paths: CorePaths;
  clock: () => Date;
  logger: Logger;
  events: EventBus;
  jobs: JobRunner;
  settings: SettingsStore;
  secrets: SecretStore;
  engines: Engines;
}
