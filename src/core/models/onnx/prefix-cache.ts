// Prompt-prefix reuse for a decoder export with a key/value cache: the prefix (system line, instruction, query) runs
// once, batch 1, and its present.* outputs become every document row's past_key_values. Rows are then only the
// document and suffix tokens, left padded; padding sits between the prefix and the row, masked out, and positions
// count real tokens (prefix length + tokens before), so each row sees exactly what the whole prompt would have seen.
import type * as Ort from 'onnxruntime-node';
import { leftPad } from './batches';
import { CACHE_KEEP_INPUT } from './derive-yesno';

export interface PrefixCache {
  /** Prefix tokens the cache holds. */
  length: number;
  /** past_key_values.* name -> the prefix's cache for one row [1, kv heads, length, head dim]. */
  past: Map<string, Ort.Tensor>;
  /**
   * past_key_values.* name -> the row's cache repeated for the most rows a batch has asked for so far: the batches of
   * one query share these buffers (a batch of fewer rows reads the first copies) instead of each allocating its own.
   */
  repeated?: Map<string, Float32Array | Uint16Array>;
}

/** The same cache with its own repeat buffers, for the batches of one group; dropped with the group. */
export function forBatches(cache: PrefixCache): PrefixCache {
  return { length: cache.length, past: cache.past, repeated: new Map() };
}

/** Bytes one cached token costs one row: every layer's keys and values. */
export function cacheBytesPerToken(cache: PrefixCache): number {
  if (cache.length === 0) return 0;
  let bytes = 0;
  for (const t of cache.past.values()) bytes += (t.data as Float32Array | Uint16Array).byteLength;
  return bytes / cache.length;
}

const pastNameFor = (present: string) => present.replace(/^present/, 'past_key_values');

/** Positions as transformers.js makes them for decoders: `offset` + real tokens before, 1 on padding. */
export function positionIds(mask: BigInt64Array, width: number, offset = 0): BigInt64Array {
  const out = new BigInt64Array(mask.length);
  for (let start = 0; start < mask.length; start += width) {
    let p = BigInt(offset);
    for (let j = start; j < start + width; j++) out[j] = mask[j] ? p++ : 1n;
  }
  return out;
}

/** Inputs other than ids, mask and positions that a Qwen3 decoder export asks for. */
function extraFeeds(
  ort: typeof Ort,
  session: Ort.InferenceSession,
  rows: number,
  cache: PrefixCache | undefined,
  feeds: Record<string, Ort.Tensor>,
): void {
  for (const meta of session.inputMetadata) {
    const name = meta.name;
    if (name in feeds) continue;
    if (name === CACHE_KEEP_INPUT) feeds[name] = new ort.Tensor('int64', BigInt64Array.of(0n), [1]);
    else if (name === 'num_logits_to_keep' || name === 'logits_to_keep')
      feeds[name] = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    else if (name === 'use_cache_branch') feeds[name] = new ort.Tensor('bool', [cache !== undefined], [1]);
    else if (name.startsWith('past_key_values.') && meta.isTensor) {
      const past = cache?.past.get(name);
      if (past)
        feeds[name] = repeatRows(ort, past, rows, cache?.repeated?.get(name), (b) =>
          cache?.repeated?.set(name, b),
        );
      else {
        // An empty cache: [batch, kv heads, 0 past tokens, head dim].
        const dims = meta.shape.map((d, i) => (i === 0 ? rows : typeof d === 'number' ? d : 0));
        const type = meta.type === 'float16' ? 'float16' : 'float32';
        feeds[name] = new ort.Tensor(
          type,
          type === 'float16' ? new Uint16Array(0) : new Float32Array(0),
          dims,
        );
      }
    }
  }
}

/**
 * A one-row tensor repeated `rows` times along the batch axis, in `kept` when it holds that many copies (every copy
 * is the same row, so its first `rows` copies are the tensor), else in a new buffer handed to `keep`.
 */
function repeatRows(
  ort: typeof Ort,
  one: Ort.Tensor,
  rows: number,
  kept: Float32Array | Uint16Array | undefined,
  keep: (buffer: Float32Array | Uint16Array) => void,
): Ort.Tensor {
  if (rows === 1) return one;
  const data = one.data as Float32Array | Uint16Array;
  let out = kept;
  if (!out || out.length < data.length * rows) {
    out = new (data.constructor as Float32ArrayConstructor | Uint16ArrayConstructor)(data.length * rows);
    for (let r = 0; r < rows; r++) out.set(data, r * data.length);
    keep(out);
  }
  return new ort.Tensor(one.type as 'float32', out.subarray(0, data.length * rows) as Float32Array, [
    rows,
    ...one.dims.slice(1),
  ]);
}

/** Feeds for rows that follow `cache` (or stand alone when it is undefined). */
export function rowFeeds(
  ort: typeof Ort,
  session: Ort.InferenceSession,
  rows: number[][],
  padId: number,
  cache?: PrefixCache,
): Record<string, Ort.Tensor> {
  const { ids, mask, width } = leftPad(rows, padId);
  const past = cache?.length ?? 0;
  const fullMask = new BigInt64Array(rows.length * (past + width));
  for (let r = 0; r < rows.length; r++) {
    fullMask.fill(1n, r * (past + width), r * (past + width) + past);
    fullMask.set(mask.subarray(r * width, (r + 1) * width), r * (past + width) + past);
  }
  const shape = [rows.length, width];
  const feeds: Record<string, Ort.Tensor> = {
    input_ids: new ort.Tensor('int64', ids, shape),
    attention_mask: new ort.Tensor('int64', fullMask, [rows.length, past + width]),
  };
  if (session.inputNames.includes('position_ids'))
    feeds.position_ids = new ort.Tensor('int64', positionIds(mask, width, past), shape);
  extraFeeds(ort, session, rows.length, cache, feeds);
  return feeds;
}

/** True when the session takes a cache and returns one for every cache input. */
export function supportsPrefixCache(session: Ort.InferenceSession): boolean {
  const past = session.inputNames.filter((n) => n.startsWith('past_key_values.'));
  const present = new Set(session.outputNames.filter((n) => n.startsWith('present')).map(pastNameFor));
  return past.length > 0 && past.every((n) => present.has(n));
}

/** Runs the prefix once (batch 1) and keeps its cache. */
export async function computePrefixCache(
  ort: typeof Ort,
  session: Ort.InferenceSession,
  prefix: number[],
): Promise<PrefixCache> {
  const presents = session.outputNames.filter((n) => n.startsWith('present'));
  const feeds = rowFeeds(ort, session, [prefix], 0);
  if (CACHE_KEEP_INPUT in feeds)
    feeds[CACHE_KEEP_INPUT] = new ort.Tensor('int64', BigInt64Array.of(BigInt(prefix.length)), [1]);
  const out = await session.run(feeds, presents);
  const past = new Map<string, Ort.Tensor>();
  for (const name of presents) {
    const t = out[name];
    if (!t) throw new Error(`the graph returned no ${name}`);
    past.set(pastNameFor(name), t);
  }
  return { length: prefix.length, past };
}
