// createCore(deps): the object that implements the whole API for every host (Electron IPC, HTTP, CLI).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CuratorApi } from '../shared/api';
import type { CuratorEventListener } from '../shared/events';
import { createEvaluationService } from './api/evaluation-service';
import { createJobsService } from './api/jobs-service';
import { registerLibraryConversion } from './api/library-conversion';
import { registerLexicalStats } from './api/lexical-stats-job';
import { createLibraryService } from './api/library-service';
import { createLlmService } from './api/llm-service';
import { createModelsService } from './api/models-service';
import { createProfilesService } from './api/profiles-service';
import { createSelectService } from './api/select-service';
import { createSettingsService } from './api/settings-service';
import { createSourcesService } from './sources/sources-service';
import { createTagsService } from './tags/tags-service';
import { createBulkService } from './bulk/bulk-service';
import { createUsageService } from './usage/usage-service';
import { createAuditService, registerAuditJob } from './audit/audit-service';
import { registerAuditReviewJob } from './audit/llm-review';
import type { CoreContext, CorePaths, SecretStore } from './context';
import type { EngineFactory } from './engines';
import { createEngines } from './engines';
import { EventBus } from './event-bus';
import { JobRunner } from './jobs/job-runner';
import type { Logger } from './logger';
import { silentLogger } from './logger';
import { SettingsStore } from './settings-store';
import type { OpenDbOptions } from './store/db';
import { openDb } from './store/db';

export interface CoreOptions {
  dataDir: string;
  /** Defaults to <dataDir>/library.db. */
  dbFile?: string;
  resourcesDir: string;
  clock?: () => Date;
  logger?: Logger;
  secrets?: SecretStore;
  db?: OpenDbOptions;
  /** Non-lexical engines the host can run (the ONNX worker, remote endpoints). */
  engineFactories?: Partial<Record<'onnx' | 'remote', EngineFactory>>;
  /** Home and project folder for the agent install targets (default: the process's). */
  installPlaces?: { home?: string; projectDir?: string };
}

export interface Core extends CuratorApi {
  onEvent(listener: CuratorEventListener): () => void;
  /** Cancels running jobs, stops workers and closes the library file. */
  close(): Promise<void>;
  readonly context: CoreContext;
}

/** Keeps the key in memory only; hosts pass a real store (safeStorage, key file). */
export function memorySecretStore(initial: string | null = null): SecretStore {
  let key = initial;
  const named = new Map<string, string>();
  return {
    getApiKey: async () => key,
    setApiKey: async (next) => {
      key = next;
    },
    getSecret: async (name) => named.get(name) ?? null,
    setSecret: async (name, value) => {
      if (value === null) named.delete(name);
      else named.set(name, value);
    },
  };
}

export function createCore(options: CoreOptions): Core {
  mkdirSync(options.dataDir, { recursive: true });
  const paths: CorePaths = {
    dataDir: options.dataDir,
    dbFile: options.dbFile ?? path.join(options.dataDir, 'library.db'),
    modelsDir: path.join(options.dataDir, 'models'),
    resourcesDir: options.resourcesDir,
  };
  const clock = options.clock ?? (() => new Date());
  const db = openDb(paths.dbFile, options.db);
  const events = new EventBus();
  const jobs = new JobRunner(db, { clock, onUpdate: (job) => events.emit({ type: 'job.updated', job }) });
  // Models set by another process (the CLI beside the app) are loaded afresh on next use.
  const settings: SettingsStore = new SettingsStore(db, () => {
    void engines.reset();
    events.emit({ type: 'models.changed' });
  });
  const engines = createEngines(db, () => settings.get(), {
    onnx: options.engineFactories?.onnx,
    remote: options.engineFactories?.remote,
  });
  const ctx: CoreContext = {
    db,
    paths,
    clock,
    logger: options.logger ?? silentLogger,
    events,
    jobs,
    settings,
    secrets: options.secrets ?? memorySecretStore(),
    engines,
  };
  const sources = createSourcesService(ctx);
  registerLibraryConversion(ctx);
  registerLexicalStats(ctx);
  registerAuditJob(ctx);
  registerAuditReviewJob(ctx);
  const api: CuratorApi = {
    ...createLibraryService(ctx),
    ...createJobsService(ctx),
    ...createModelsService(ctx),
    ...createLlmService(ctx),
    ...createSelectService(ctx),
    ...createEvaluationService(ctx),
    ...createSettingsService(ctx),
    ...sources.api,
    ...createProfilesService(ctx, options.installPlaces),
    ...createTagsService(ctx),
    ...createBulkService(ctx),
    ...createUsageService(ctx),
    ...createAuditService(ctx),
  };
  return {
    ...api,
    context: ctx,
    onEvent: (listener) => events.on(listener),
    close: async () => {
      await sources.close();
      await jobs.close();
      await engines.close();
      db.close();
    },
  };
}

export { resumeFolderWatches } from './sources/sources-service';
export { resumeLibraryConversion } from './api/library-conversion';
export { resumeLexicalStats, resumeLexicalStatsSoon } from './api/lexical-stats-job';
export { getProfile, listProfiles, resolveProfileSkillIds } from './profiles';
