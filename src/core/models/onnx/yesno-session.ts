// Runs the derived yes/no graph (./derive-yesno) straight on onnxruntime-node: transformers.js knows only the exports'
// own file names and outputs. Feeds what a Qwen3 decoder export asks for: positions from the mask, an empty cache.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { CuratorError } from '../../../shared/errors';
import { chooseDtype, deviceCandidates, onnxFileForDtype } from '../manager/dtype-device';
import { decodeModel } from './onnx-model-proto';
import { ensureYesNoModel, YESNO_OUTPUT, type YesNoVariant } from './derive-yesno';
import {
  availableDtypes,
  errorText,
  inLoadQueue,
  loadTokenizer,
  type LoadedModelInfo,
  type OnnxModelOptions,
  type PreTrainedTokenizer,
} from './load-model';
import { computePrefixCache, rowFeeds, supportsPrefixCache, type PrefixCache } from './prefix-cache';

export interface YesNoRunner {
  info: LoadedModelInfo;
  tokenizer: PreTrainedTokenizer;
  /** logit(yes) - logit(no) at the last token of each row; rows continue `prefix` when one is given. */
  run(rows: number[][], padId: number, prefix?: PrefixCache): Promise<number[]>;
  /** Present when the graph returns its key/value cache (the with-cache variant): runs a shared prompt prefix once. */
  prefix?: (ids: number[]) => Promise<PrefixCache>;
  dispose(): Promise<void>;
}

/** IEEE half to float, for fp16 exports whose outputs stay 16-bit. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/**
 * Loads the folder's yes/no graph, deriving it first when it is missing or stale. Throws MODEL_ERROR with
 * `derivable: false` when the export's head cannot be cut down (the caller falls back to the full graph).
 */
export function loadYesNoModel(
  options: OnnxModelOptions,
  tokens: [number, number],
  opts: { prefixCache?: boolean; cpuMemArena?: boolean; memPattern?: boolean; spinning?: boolean } = {},
): Promise<YesNoRunner> {
  return inLoadQueue(async () => {
    const folder = path.resolve(options.folder);
    const { tokenizer } = await loadTokenizer(options);
    const available = await availableDtypes(folder);
    const ort = await import('onnxruntime-node');
    const failures: string[] = [];
    for (const device of deviceCandidates(options.device ?? 'auto')) {
      const dtype = chooseDtype(device, available, options.dtype);
      if (!dtype) {
        failures.push(
          `${device}: ${options.dtype ? onnxFileForDtype(options.dtype) : 'any onnx/model*.onnx'} is missing`,
        );
        continue;
      }
      // A head that cannot be cut down throws here, for every device alike.
      const source = onnxFileForDtype(dtype);
      const variant: YesNoVariant =
        opts.prefixCache && (await hasCacheInputs(path.join(folder, source))) ? 'with-cache' : 'plain';
      const derived = await ensureYesNoModel(folder, source, tokens, variant);
      let session: Ort.InferenceSession;
      try {
        session = await ort.InferenceSession.create(path.join(folder, derived.file), {
          executionProviders: [device],
          graphOptimizationLevel: 'all',
          ...(opts.cpuMemArena === false ? { enableCpuMemArena: false } : {}),
          ...(opts.memPattern === false ? { enableMemPattern: false } : {}),
          // Idle intra-op threads sleep instead of spinning unless asked (onnxruntime's session.intra_op.allow_spinning).
          ...(opts.spinning === true ? {} : { extra: { session: { intra_op: { allow_spinning: '0' } } } }),
          ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
        });
      } catch (error) {
        failures.push(`${device}: ${errorText(error)}`);
        continue;
      }
      const info: LoadedModelInfo = {
        folder,
        device,
        dtype,
        file: derived.file,
        inputNames: [...session.inputNames],
        outputNames: [...session.outputNames],
        head: 'yes-no',
        derivedFrom: derived.source,
        ...(variant === 'with-cache' ? { prefixCache: supportsPrefixCache(session) } : {}),
        ...(failures.length ? { fallbackReason: failures.join('; ') } : {}),
      };
      return runner(ort, session, info, tokenizer);
    }
    throw new CuratorError(
      'MODEL_ERROR',
      `Could not load the yes/no graph in ${folder}: ${failures.join('; ')}`,
      {
        folder,
        failures,
      },
    );
  });
}

function runner(
  ort: typeof Ort,
  session: Ort.InferenceSession,
  info: LoadedModelInfo,
  tokenizer: PreTrainedTokenizer,
): YesNoRunner {
  return {
    info,
    tokenizer,
    ...(info.prefixCache ? { prefix: (ids: number[]) => computePrefixCache(ort, session, ids) } : {}),
    async run(rows, padId, prefix) {
      const out = await session.run(rowFeeds(ort, session, rows, padId, prefix), [YESNO_OUTPUT]);
      const tensor = out[YESNO_OUTPUT];
      if (!tensor) throw new Error(`the graph returned no ${YESNO_OUTPUT}`);
      const data = tensor.data as Float32Array | Uint16Array;
      const value =
        tensor.type === 'float16' ? (i: number) => halfToFloat(data[i] ?? 0) : (i: number) => data[i] ?? NaN;
      return rows.map((_, r) => value(r * 2) - value(r * 2 + 1));
    },
    async dispose() {
      await session.release();
    },
  };
}

/** Whether the export takes a key/value cache: its input names, read from the file's graph without a session. */
async function hasCacheInputs(file: string): Promise<boolean> {
  const model = decodeModel(await readFile(file));
  return model.graph.input.some((i) => i.name.startsWith('past_key_values.'));
}
