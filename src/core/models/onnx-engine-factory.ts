// The ONNX engines (Qwen3 embedder and reranker) as the engine registry's factory, over one model worker, so
// inference never runs on the host's event loop. The host supplies how the worker is spawned.
import { CuratorError } from '../../shared/errors';
import type { ModelRole, ModelVerifyReport } from '../../shared/api/models';
import type { Settings } from '../../shared/settings';
import type { EngineFactory } from '../engines';
import type { Logger } from '../logger';
import type { DeviceChoice, OnnxDtype } from './manager/dtype-device';
import type { LoadedModelInfo } from './onnx/load-model';
import type { CrossEncoder } from './ports';
import { createModelWorkerHost, type ModelWorkerHost } from './worker/host';
import type { SpawnWorker } from './worker/protocol';
import { createWorkerCrossEncoder, createWorkerEmbedder, verifyInWorker } from './worker/worker-scorers';

export interface OnnxEngineFactory extends EngineFactory {
  verify(folder: string, role: ModelRole, dtype?: OnnxDtype): Promise<ModelVerifyReport>;
}

function slotOf(settings: Settings, role: ModelRole) {
  const slot = settings.models[role];
  if (!slot.path) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `No ${role} model is installed: add a local folder (models add ${role} FOLDER) or download one (models download ${role})`,
    );
  }
  return {
    folder: slot.path,
    dtype: slot.dtype === 'auto' ? undefined : (slot.dtype as OnnxDtype),
    device: slot.device as DeviceChoice,
  };
}

/**
 * The engine named by the weights it loaded: dtype `auto` picks q8 on the CPU when the export has it, and q8's r are
 * not fp32's, so the id (score cache, measured throughput, trace) says `@q8`; fp32 keeps the bare model id.
 */
export function withWeights<T extends CrossEncoder>(encoder: T, dtype: OnnxDtype): T & { weights: string } {
  return { ...encoder, id: dtype === 'fp32' ? encoder.id : `${encoder.id}@${dtype}`, weights: dtype };
}

export function createOnnxEngineFactory(options: {
  spawn: SpawnWorker;
  logger?: Logger;
  cacheDir?: string;
}): OnnxEngineFactory {
  let host: ModelWorkerHost | undefined;
  const loaded: Partial<Record<ModelRole, LoadedModelInfo>> = {};
  const worker = () => (host ??= createModelWorkerHost({ spawn: options.spawn, logger: options.logger }));

  return {
    async embedder(settings) {
      const embedder = await createWorkerEmbedder(worker(), {
        ...slotOf(settings, 'embedder'),
        cacheDir: options.cacheDir,
        maxBatchSize: settings.models.embedBatchSize,
      });
      loaded.embedder = await embedder.load();
      return embedder;
    },
    async crossEncoder(settings) {
      const encoder = await createWorkerCrossEncoder(worker(), {
        ...slotOf(settings, 'reranker'),
        cacheDir: options.cacheDir,
        maxBatchSize: settings.models.rerankBatchSize,
        maxTokens: settings.selection.crossEncoderMaxTokens,
      });
      loaded.reranker = await encoder.load();
      return withWeights(encoder, loaded.reranker.dtype);
    },
    describe(role) {
      const info = loaded[role];
      return info
        ? {
            provider: info.device,
            fallbackReason: info.fallbackReason,
            modelFile: info.file,
            ...(info.headNote ? { headNote: info.headNote } : {}),
            loaded: true,
          }
        : { loaded: false };
    },
    verify(folder, role, dtype) {
      return verifyInWorker(worker(), folder, role, { dtype });
    },
    async dispose() {
      host?.close();
      host = undefined;
    },
  };
}
