// What the browser-mode suites put into the core before Chromium opens: the bundled samples from resources/, a
// loopback OpenAI endpoint the LLM settings point at, and a tiny local embedder.
import path from 'node:path';
import { expect } from 'vitest';
import type { Core, CoreOptions } from '../../src/core';
import { createOnnxEngineFactory } from '../../src/core/models/onnx-engine-factory';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import type { Settings } from '../../src/shared/settings';
import {
  startOpenAiServer,
  userText,
  type OpenAiServer,
  type OpenAiServerOptions,
  type RecordedRequest,
} from '../fixtures/openai-server';
import { writeTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';
import { repoRoot } from './harness';

export const sampleLibrary = path.join(repoRoot, 'resources', 'sample-library');
export const sampleStates = path.join(repoRoot, 'resources', 'sample-states.jsonl');
export const sampleTasks = path.join(repoRoot, 'resources', 'sample-tasks.jsonl');

/** Imports the 48 sample skills and waits until the import is done. */
export async function importSampleLibrary(core: Core): Promise<void> {
  const job = await core['library.import']({ path: sampleLibrary });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
}

/** Applies the sample states (as edited, or as verified with `verify`); resolves to what the import reports. */
export function importSampleStates(core: Core, options: { verify?: boolean } = {}) {
  return core['states.import']({ path: sampleStates, ...options });
}

/** Imports the sample tasks as a label set named `name`. */
export function importSampleTasks(core: Core, name = 'sample') {
  return core['labels.import']({ path: sampleTasks, name });
}

/**
 * Starts a loopback OpenAI server and points the core's LLM settings at it: model `e2e-model`, no retries, one request
 * at a time, and whatever `llm` adds (prices, say).
 */
export async function connectLoopbackLlm(
  core: Core,
  serverOptions: OpenAiServerOptions,
  llm: Partial<Settings['llm']> = {},
): Promise<OpenAiServer> {
  const server = await startOpenAiServer(serverOptions);
  await core['settings.update']({
    patch: { llm: { baseURL: server.baseURL, model: 'e2e-model', maxRetries: 0, concurrency: 1, ...llm } },
  });
  return server;
}

/** The name in the front matter of the SKILL.md a parse request sends; '?' when there is none. */
export function skillNameAsked(request: RecordedRequest): string {
  return /\nname: (\S+)/.exec(userText(request))?.[1] ?? '?';
}

/**
 * Writes a tiny Qwen3-shaped embedder (fp32) to <dir>/embedder, and returns core options that run ONNX models in a model
 * worker with their cache in <dir>/cache.
 */
export function tinyEmbedderCoreOptions(dir: string): Partial<CoreOptions> {
  writeTinyQwen3(path.join(dir, 'embedder'), { head: 'base', hidden: 32, seed: 3, dtypes: ['fp32'] });
  return {
    engineFactories: {
      onnx: createOnnxEngineFactory({ spawn: forkModelWorker(), cacheDir: path.join(dir, 'cache') }),
    },
  };
}
