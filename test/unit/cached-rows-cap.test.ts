// The batch rule for prompt-prefix reuse: every row of a batch holds its own copy of the head's key/value cache, so
// rows x head tokens x bytes per cached token stays within a memory budget; long heads get fewer rows per batch.
import { describe, expect, it } from 'vitest';
import { cachedRowsCap, planBatches, REPEATED_CACHE_BYTES } from '../../src/core/models/onnx/batches';

// Qwen3-0.6B fp32: 28 layers x (keys + values) x 8 kv heads x 128 dims x 4 bytes.
const qwen3TokenBytes = 28 * 2 * 8 * 128 * 4;

describe('rows per batch after a cached prompt head', () => {
  it('keeps rows x head tokens x bytes per token within the budget, one row at least', () => {
    expect(qwen3TokenBytes).toBe(229_376);
    expect(REPEATED_CACHE_BYTES).toBe(256 * 2 ** 20);
    // A 300-token stage-fit head: 3 rows hold 206 MB of cache, 4 would hold 275 MB.
    expect(cachedRowsCap(300, qwen3TokenBytes)).toBe(3);
    // A 40-token alignment head: 29 rows fit, so the batch size decides.
    expect(cachedRowsCap(40, qwen3TokenBytes)).toBe(29);
    // A head larger than the whole budget still runs, one row at a time.
    expect(cachedRowsCap(2_000, qwen3TokenBytes)).toBe(1);
    expect(cachedRowsCap(10, 100, 2_500)).toBe(2);
    // No head (whole prompts), no cap.
    expect(cachedRowsCap(0, qwen3TokenBytes)).toBe(Infinity);
    for (const head of [1, 17, 64, 150, 300, 700, 1_100]) {
      const rows = cachedRowsCap(head, qwen3TokenBytes);
      expect(rows * head * qwen3TokenBytes).toBeLessThanOrEqual(REPEATED_CACHE_BYTES);
      expect((rows + 1) * head * qwen3TokenBytes).toBeGreaterThan(REPEATED_CACHE_BYTES);
    }
  });

  it('splits one query’s documents into batches of at most the capped rows', () => {
    const head = 300;
    const rowTokens = [40, 42, 41, 45, 44, 43, 46, 47]; // document + suffix tokens after the head
    const cap = cachedRowsCap(head, qwen3TokenBytes);
    const limits = { maxBatchSize: Math.min(8, cap), maxBatchTokens: 4096, maxPaddingShare: 1 };
    const batches = planBatches(
      rowTokens.map((n) => head + n),
      limits,
    );
    expect(batches.map((b) => b.length)).toEqual([3, 3, 2]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(rowTokens.map((_, i) => i));
    // Without the cap, the token bound alone lets 8 rows (8 x 347 < 4096) share one batch: 550 MB of repeated cache.
    expect(
      planBatches(
        rowTokens.map((n) => head + n),
        { ...limits, maxBatchSize: 8 },
      ),
    ).toHaveLength(1);
  });
});
