// Loads a Qwen3 model folder through transformers.js on onnxruntime-node: offline only, a device tried in order with
// a fall back to the CPU that says why, and the dtype picked from the files the folder has.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../../shared/errors';
import {
  chooseDtype,
  deviceCandidates,
  dtypeOfOnnxFile,
  onnxFileForDtype,
  type Device,
  type DeviceChoice,
  type OnnxDtype,
} from '../manager/dtype-device';

export type Transformers = typeof import('@huggingface/transformers');
type PreTrainedModel = Awaited<ReturnType<Transformers['AutoModel']['from_pretrained']>>;
export type PreTrainedTokenizer = Awaited<ReturnType<Transformers['AutoTokenizer']['from_pretrained']>>;

export interface OnnxModelOptions {
  /** Absolute path of the model folder (config.json, tokenizer files, onnx/). */
  folder: string;
  device?: DeviceChoice;
  /** Default: q8 on the CPU, fp16 on a GPU (or the nearest file the folder has). */
  dtype?: OnnxDtype;
  /** transformers.js cache folder; its default lies inside node_modules, read-only once packaged. */
  cacheDir?: string;
  /** onnxruntime intra-op threads; default: onnxruntime's choice. */
  threads?: number;
}

export interface LoadedModelInfo {
  folder: string;
  device: Device;
  dtype: OnnxDtype;
  file: string;
  inputNames: string[];
  outputNames: string[];
  /** Why the model runs on a device other than the first one tried (one line per failed device). */
  fallbackReason?: string;
  /** Reranker only: `yes-no` when a graph derived to return just the two read logits runs (`file` names it). */
  head?: 'yes-no' | 'full-vocabulary';
  /** The export the derived graph was made from, relative to the folder. */
  derivedFrom?: string;
  /** Reranker only: true when a query's prompt prefix runs once and its key/value cache feeds every document. */
  prefixCache?: boolean;
  /** Why the reranker runs the full-vocabulary graph although the yes/no graph was asked for. */
  headNote?: string;
}

export interface LoadedModel {
  transformers: Transformers;
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  info: LoadedModelInfo;
}

let transformersPromise: Promise<Transformers> | undefined;

/** Imported on first use so that a missing native binary fails a model load, not the app's start. */
export function importTransformers(): Promise<Transformers> {
  transformersPromise ??= import('@huggingface/transformers').catch((error: unknown) => {
    transformersPromise = undefined;
    throw new CuratorError('MODEL_ERROR', `Could not load the ONNX runtime: ${errorText(error)}`);
  });
  return transformersPromise;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function availableDtypes(folder: string): Promise<OnnxDtype[]> {
  const files = await readdir(path.join(folder, 'onnx')).catch(() => [] as string[]);
  return files.map((f) => dtypeOfOnnxFile(f)).filter((d): d is OnnxDtype => d !== undefined);
}

// transformers.js keeps global settings; loads are serialised so one load's settings never leak into another's.
let loadQueue: Promise<unknown> = Promise.resolve();

/** Runs a load after the loads before it (transformers.js settings are global). */
export function inLoadQueue<T>(load: () => Promise<T>): Promise<T> {
  const run = loadQueue.then(load);
  loadQueue = run.catch(() => undefined);
  return run;
}

export function loadModel(options: OnnxModelOptions, head: 'base' | 'lm'): Promise<LoadedModel> {
  return inLoadQueue(() => loadModelNow(options, head));
}

/** The folder's tokenizer, offline; transformers.js is set up for local files only. */
export async function loadTokenizer(
  options: OnnxModelOptions,
): Promise<{ transformers: Transformers; tokenizer: PreTrainedTokenizer }> {
  const folder = path.resolve(options.folder);
  const t = await importTransformers();
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.localModelPath = path.dirname(folder);
  if (options.cacheDir) t.env.cacheDir = options.cacheDir;
  const tokenizer = await t.AutoTokenizer.from_pretrained(folder).catch((error: unknown) => {
    throw new CuratorError('MODEL_ERROR', `Could not read the tokenizer in ${folder}: ${errorText(error)}`, {
      folder,
    });
  });
  return { transformers: t, tokenizer };
}

async function loadModelNow(options: OnnxModelOptions, head: 'base' | 'lm'): Promise<LoadedModel> {
  const folder = path.resolve(options.folder);
  const { transformers: t, tokenizer } = await loadTokenizer(options);
  const available = await availableDtypes(folder);
  const failures: string[] = [];
  for (const device of deviceCandidates(options.device ?? 'auto')) {
    const dtype = chooseDtype(device, available, options.dtype);
    if (!dtype) {
      const wanted = options.dtype ? onnxFileForDtype(options.dtype) : 'any onnx/model*.onnx';
      failures.push(`${device}: ${wanted} is missing`);
      continue;
    }
    try {
      const Auto = head === 'lm' ? t.AutoModelForCausalLM : t.AutoModel;
      const model = await Auto.from_pretrained(folder, {
        device,
        dtype,
        local_files_only: true,
        session_options: options.threads
          ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 }
          : undefined,
      });
      const session = (
        model as unknown as { sessions: Record<string, { inputNames: string[]; outputNames: string[] }> }
      ).sessions.model;
      const info: LoadedModelInfo = {
        folder,
        device,
        dtype,
        file: onnxFileForDtype(dtype),
        inputNames: session?.inputNames ?? [],
        outputNames: session?.outputNames ?? [],
        ...(failures.length ? { fallbackReason: failures.join('; ') } : {}),
      };
      return { transformers: t, tokenizer, model, info };
    } catch (error) {
      failures.push(`${device}: ${errorText(error)}`);
    }
  }
  throw new CuratorError('MODEL_ERROR', `Could not load the model in ${folder}: ${failures.join('; ')}`, {
    folder,
    failures,
  });
}
