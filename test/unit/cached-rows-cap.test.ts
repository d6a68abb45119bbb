// The batch rule for prompt-prefix reuse: every row of a batch holds its own copy of the head's key/value cache,
// joined in each layer with its own keys and values, so rows x (head + row tokens) x bytes per cached token stays
// within a memory budget; long heads and long rows get fewer rows per batch.
import { describe, expect, it } from 'vitest';
import {
  cachedRowsCap,
  cachedTokenBound,
  longestFirst,
  planBatches,
  REPEATED_CACHE_BYTES,
} from '../../src/core/models/onnx/batches';

// Qwen3-0.6B fp32: 28 layers x (keys + values) x 8 kv heads x 128 dims x 4 bytes.
const qwen3TokenBytes = 28 * 2 * 8 * 128 * 4;

describe('rows per batch after a cached prompt head', () => {
  it('keeps rows x (head + row tokens) x bytes per token within the budget, one row at least', () => {
    expect(qwen3TokenBytes).toBe(229_376);
    expect(REPEATED_CACHE_BYTES).toBe(96 * 2 ** 20);
    expect(cachedTokenBound(qwen3TokenBytes)).toBe(438);
    // An 80-token head before documents of ~300 tokens: 1 row; before a 45-token state sentence: 3 rows
    // (375 tokens of cache).
    expect(cachedRowsCap(80, 300, qwen3TokenBytes)).toBe(1);
    expect(cachedRowsCap(80, 45, qwen3TokenBytes)).toBe(3);
    // A head and row larger than the whole budget still run, one row at a time.
    expect(cachedRowsCap(700, 400, qwen3TokenBytes)).toBe(1);
    expect(cachedRowsCap(10, 15, 100, 10_000)).toBe(4);
    // A graph without a cache: no bound.
    expect(cachedTokenBound(0)).toBe(Infinity);
    for (const [head, row] of [
      [1, 1],
      [17, 40],
      [30, 100],
      [85, 269],
      [150, 200],
    ] as const) {
      const rows = cachedRowsCap(head, row, qwen3TokenBytes);
      expect(rows * (head + row) * qwen3TokenBytes).toBeLessThanOrEqual(REPEATED_CACHE_BYTES);
      expect((rows + 1) * (head + row) * qwen3TokenBytes).toBeGreaterThan(REPEATED_CACHE_BYTES);
    }
  });

  it('splits one query’s documents into batches of at most the capped rows', () => {
    const head = 80;
    const rowTokens = [262, 269, 265, 300, 310, 305, 320, 324]; // document + suffix tokens after the head
    const limits = { maxBatchSize: 4, maxBatchTokens: 4096, maxPaddingShare: 1 };
    const lengths = rowTokens.map((n) => head + n);
    const batches = planBatches(lengths, {
      ...limits,
      maxBatchTokens: Math.min(4096, cachedTokenBound(qwen3TokenBytes)),
    });
    expect(batches.map((b) => b.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(rowTokens.map((_, i) => i));
    for (const b of batches)
      expect(b.length).toBeLessThanOrEqual(
        cachedRowsCap(head, Math.max(...b.map((i) => rowTokens[i]!)), qwen3TokenBytes),
      );
    // Without the budget, the token bound alone lets 4 rows share a batch.
    expect(planBatches(lengths, limits).map((b) => b.length)).toEqual([4, 4]);
  });

  it('runs the same batches longest first, so the arena grows to its largest shape once', () => {
    const lengths = [120, 900, 40, 610, 45, 300, 880, 42];
    const limits = { maxBatchSize: 4, maxBatchTokens: 1024, maxPaddingShare: 0.1 };
    const planned = planBatches(lengths, limits);
    const order = longestFirst(planned);
    expect(order).toHaveLength(planned.length);
    expect([...order].sort()).toEqual([...planned].sort());
    // The first batch holds the longest row; each batch's longest row is no longer than the one before.
    expect(order[0]).toContain(lengths.indexOf(Math.max(...lengths)));
    const longest = order.map((b) => Math.max(...b.map((i) => lengths[i]!)));
    expect(longest).toEqual([...longest].sort((a, b) => b - a));
    expect(planned).toEqual(planBatches(lengths, limits));
  });
});
