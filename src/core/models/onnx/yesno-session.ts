// Runs the derived yes/no graph (./derive-yesno) straight on onnxruntime-node: transformers.js knows only the exports'
// own file names and outputs. Feeds what a Qwen3 decoder export asks for: positions from the mask, an empty cache.
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { CuratorError } from '../../../shared/errors';
import { chooseDtype, deviceCandidates, onnxFileForDtype } from '../manager/dtype-device';
import { leftPad } from './batches';
import { ensureYesNoModel, YESNO_OUTPUT } from './derive-yesno';
import {
  availableDtypes,
  errorText,
  inLoadQueue,
  loadTokenizer,
  type LoadedModelInfo,
  type OnnxModelOptions,
  type PreTrainedTokenizer,
} from './load-model';

export interface YesNoRunner {
  info: LoadedModelInfo;
  tokenizer: PreTrainedTokenizer;
  /** logit(yes) - logit(no) at the last token of each row. */
  run(rows: number[][], padId: number): Promise<number[]>;
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

/** Positions as transformers.js makes them for decoders: count of real tokens before, 1 on padding. */
function positionIds(mask: BigInt64Array, width: number): BigInt64Array {
  const out = new BigInt64Array(mask.length);
  for (let start = 0; start < mask.length; start += width) {
    let p = 0n;
    for (let j = start; j < start + width; j++) out[j] = mask[j] ? p++ : 1n;
  }
  return out;
}

function feedsFor(
  ort: typeof Ort,
  session: Ort.InferenceSession,
  rows: number[][],
  padId: number,
): Record<string, Ort.Tensor> {
  const { ids, mask, width } = leftPad(rows, padId);
  const shape = [rows.length, width];
  const feeds: Record<string, Ort.Tensor> = {
    input_ids: new ort.Tensor('int64', ids, shape),
    attention_mask: new ort.Tensor('int64', mask, shape),
  };
  for (const meta of session.inputMetadata) {
    const name = meta.name;
    if (name === 'position_ids') feeds[name] = new ort.Tensor('int64', positionIds(mask, width), shape);
    else if (name === 'num_logits_to_keep' || name === 'logits_to_keep')
      feeds[name] = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    else if (name === 'use_cache_branch') feeds[name] = new ort.Tensor('bool', [false], [1]);
    else if (name.startsWith('past_key_values.') && meta.isTensor) {
      // An empty cache: [batch, kv heads, 0 past tokens, head dim].
      const dims = meta.shape.map((d, i) => (i === 0 ? rows.length : typeof d === 'number' ? d : 0));
      const type = meta.type === 'float16' ? 'float16' : 'float32';
      feeds[name] = new ort.Tensor(type, type === 'float16' ? new Uint16Array(0) : new Float32Array(0), dims);
    }
  }
  return feeds;
}

/**
 * Loads the folder's yes/no graph, deriving it first when it is missing or stale. Throws MODEL_ERROR with
 * `derivable: false` when the export's head cannot be cut down (the caller falls back to the full graph).
 */
export function loadYesNoModel(options: OnnxModelOptions, tokens: [number, number]): Promise<YesNoRunner> {
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
      const derived = await ensureYesNoModel(folder, onnxFileForDtype(dtype), tokens);
      let session: Ort.InferenceSession;
      try {
        session = await ort.InferenceSession.create(path.join(folder, derived.file), {
          executionProviders: [device],
          graphOptimizationLevel: 'all',
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
    async run(rows, padId) {
      const out = await session.run(feedsFor(ort, session, rows, padId), [YESNO_OUTPUT]);
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
