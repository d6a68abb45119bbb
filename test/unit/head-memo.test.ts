// The prompt heads kept between scoring calls: the least recently used go first once the bytes run out, a head larger
// than the bound is used but not kept, and another instruction drops them all.
import type * as Ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { createHeadMemo } from '../../src/core/models/onnx/head-memo';
import type { PrefixCache } from '../../src/core/models/onnx/prefix-cache';

/** A head of `tokens` tokens whose cache is 4 bytes per token (one float per token, one layer). */
const head = (tokens: number): PrefixCache => ({
  length: tokens,
  past: new Map([['past_key_values.0.key', { data: new Float32Array(tokens) } as unknown as Ort.Tensor]]),
});

describe('head memo', () => {
  it('keeps the most recently used heads within the byte bound, per instruction', async () => {
    const memo = createHeadMemo(40); // 10 tokens
    const runs: number[] = [];
    const get = async (instruction: string, ids: number[]) =>
      (
        await memo.get(instruction, ids, async () => {
          runs.push(ids[0]!);
          return head(ids.length);
        })
      ).computed;
    expect(await get('a', [1, 1, 1, 1])).toBe(true);
    expect(await get('a', [2, 2, 2, 2])).toBe(true);
    expect(await get('a', [1, 1, 1, 1])).toBe(false); // kept; now the most recent
    expect(await get('a', [3, 3, 3, 3])).toBe(true); // 12 tokens > 10: the least recent (2) goes
    expect(await get('a', [1, 1, 1, 1])).toBe(false);
    expect(await get('a', [2, 2, 2, 2])).toBe(true);
    expect(await get('a', Array(11).fill(4))).toBe(true); // larger than the bound: used, not kept
    expect(await get('a', Array(11).fill(4))).toBe(true);
    expect(await get('b', [1, 1, 1, 1])).toBe(true); // another instruction: nothing kept
    expect(await get('a', [1, 1, 1, 1])).toBe(true);
    expect(runs).toEqual([1, 2, 3, 2, 4, 4, 1, 1]);
  });

  it('keeps nothing with a bound of 0', async () => {
    const memo = createHeadMemo(0);
    const compute = async () => head(2);
    expect((await memo.get('a', [1, 2], compute)).computed).toBe(true);
    expect((await memo.get('a', [1, 2], compute)).computed).toBe(true);
  });
});
