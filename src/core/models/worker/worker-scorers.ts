// The Embedder and CrossEncoder ports over the model worker: what the app's core uses, so inference never runs on
// the app's event loop.
import path from 'node:path';
import type { ModelRole, ModelVerifyReport } from '../../../shared/api/models';
import type { OnnxDtype } from '../manager/dtype-device';
import type { PaddingStats } from '../onnx/batches';
import { addPaddingStats, emptyPaddingStats } from '../onnx/batches';
import type { LoadedModelInfo } from '../onnx/load-model';
import { readHiddenSize, type OnnxEmbedderOptions } from '../onnx/qwen3-embedder';
import type { OnnxCrossEncoderOptions } from '../onnx/qwen3-reranker';
import type { CrossEncoder, CrossScore, Embedder } from '../ports';
import type { ModelWorkerHost } from './host';

export interface WorkerEmbedder extends Embedder {
  /** Loads the model in the worker now and tells which device and file run it (fallbacks included). */
  load(): Promise<LoadedModelInfo>;
  readonly stats: PaddingStats;
  dispose(): Promise<void>;
}

export interface WorkerCrossEncoder extends CrossEncoder {
  load(): Promise<LoadedModelInfo>;
  readonly stats: PaddingStats;
  dispose(): Promise<void>;
}

export async function createWorkerEmbedder(
  host: ModelWorkerHost,
  options: OnnxEmbedderOptions,
): Promise<WorkerEmbedder> {
  const spec = { role: 'embedder' as const, ...options, folder: path.resolve(options.folder) };
  const hidden = await readHiddenSize(spec.folder);
  const stats = emptyPaddingStats();
  return {
    id: options.id ?? path.basename(spec.folder),
    engine: 'onnx',
    dim: options.dimensions ?? hidden,
    stats,
    async load() {
      return (await host.call<LoadedModelInfo>({ type: 'load', spec })).value;
    },
    async embed(texts, opts) {
      if (texts.length === 0) return [];
      const { value, stats: s } = await host.call<Float32Array[]>(
        { type: 'embed', spec, texts, role: opts.role, instruction: opts.instruction },
        { signal: opts.signal, onProgress: opts.onProgress },
      );
      if (s) addPaddingStats(stats, s);
      return value;
    },
    async dispose() {
      await host.call({ type: 'unload', spec }).catch(() => undefined);
    },
  };
}

export async function createWorkerCrossEncoder(
  host: ModelWorkerHost,
  options: OnnxCrossEncoderOptions,
): Promise<WorkerCrossEncoder> {
  const spec = { role: 'reranker' as const, ...options, folder: path.resolve(options.folder) };
  const stats = emptyPaddingStats();
  return {
    id: options.id ?? path.basename(spec.folder),
    engine: 'onnx',
    stats,
    async load() {
      return (await host.call<LoadedModelInfo>({ type: 'load', spec })).value;
    },
    async score(pairs, opts) {
      if (pairs.length === 0) return [];
      const { value, stats: s } = await host.call<CrossScore[]>(
        { type: 'score', spec, pairs, instruction: opts.instruction, maxTokens: opts.maxTokens },
        { signal: opts.signal, onProgress: opts.onProgress },
      );
      if (s) addPaddingStats(stats, s);
      return value;
    },
    async dispose() {
      await host.call({ type: 'unload', spec }).catch(() => undefined);
    },
  };
}

/** Verifies a model folder in the worker: opening a real model's ONNX file takes seconds and hundreds of MB. */
export async function verifyInWorker(
  host: ModelWorkerHost,
  folder: string,
  role: ModelRole,
  options: { dtype?: OnnxDtype; signal?: AbortSignal } = {},
): Promise<ModelVerifyReport> {
  const request = { type: 'verify' as const, folder: path.resolve(folder), role, dtype: options.dtype };
  return (await host.call<ModelVerifyReport>(request, { signal: options.signal })).value;
}
