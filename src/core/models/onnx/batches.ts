// Length-sorted batching: sequences of similar length share a batch, a batch closes before padding exceeds a share of
// it, and the padded batch (rows x longest row) stays under a token bound that caps memory.

export interface BatchLimits {
  /** Most sequences in one batch. */
  maxBatchSize: number;
  /** Most padded tokens (rows x longest row) in one batch; a longer single sequence still runs alone. */
  maxBatchTokens: number;
  /** Most share of a batch's tokens that may be padding before a new batch starts (default 0.1). */
  maxPaddingShare?: number;
}

export interface PaddingStats {
  batches: number;
  /** Real tokens (mask = 1). */
  tokens: number;
  /** Tokens the model ran over, padding included. */
  paddedTokens: number;
}

export const emptyPaddingStats = (): PaddingStats => ({ batches: 0, tokens: 0, paddedTokens: 0 });

/** Share of the computed tokens that were padding. */
export function paddingWaste(stats: PaddingStats): number {
  return stats.paddedTokens === 0 ? 0 : 1 - stats.tokens / stats.paddedTokens;
}

export function addPaddingStats(into: PaddingStats, add: PaddingStats): void {
  into.batches += add.batches;
  into.tokens += add.tokens;
  into.paddedTokens += add.paddedTokens;
}

/** Groups item indices into batches, shortest sequences first. */
export function planBatches(lengths: number[], limits: BatchLimits): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] ?? 0) - (lengths[b] ?? 0) || a - b);
  const batches: number[][] = [];
  const maxShare = limits.maxPaddingShare ?? 0.1;
  let current: number[] = [];
  let real = 0;
  for (const index of order) {
    const longest = lengths[index] ?? 0; // ascending order: the newcomer is the longest row
    const padded = (current.length + 1) * longest;
    const fits =
      current.length < limits.maxBatchSize &&
      padded <= limits.maxBatchTokens &&
      1 - (real + longest) / padded <= maxShare;
    if (current.length > 0 && !fits) {
      batches.push(current);
      current = [];
      real = 0;
    }
    current.push(index);
    real += longest;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The planned batches in the order to run them: the longest first. onnxruntime's CPU arena keeps every block it has
 * touched; run shortest first, each longer batch asks for slightly larger tensors than any free block and the arena
 * grows again, so the peak RSS is the sum of the steps (a whole K = 30 selection crept up 330 MB over its relevance
 * batches). Longest first, the arena reaches its largest shapes once and the shorter batches fit in what is free. The
 * batches are the same, so every score is the same bit for bit (METHOD-notes 40).
 */
export function longestFirst(batches: number[][]): number[][] {
  return [...batches].reverse();
}

/**
 * Bytes of key/value cache that the rows of one batch after a cached prompt head may hold together. Each row holds its
 * own copy of the head's cache (every layer at once, fed as inputs) and, inside each layer, that copy joined with its
 * own keys and values: about rows x (head + row tokens) x bytes per cached token (Qwen3-0.6B fp32: 28 layers x keys
 * and values x 8 heads x 128 x 4 B = 229,376 B, so 438 tokens). Measured on the real-shape model: one document of
 * ~400 tokens per batch kept peak RSS under 2.5 GB where 2 and 4 did not, at no CPU cost (docs/METHOD-notes.md, 30).
 */
export const REPEATED_CACHE_BYTES = 96 * 2 ** 20;

/** Padded tokens (rows x (head + longest row)) one batch after a cached head may hold within `budgetBytes`. */
export function cachedTokenBound(bytesPerCachedToken: number, budgetBytes = REPEATED_CACHE_BYTES): number {
  return bytesPerCachedToken > 0 ? Math.floor(budgetBytes / bytesPerCachedToken) : Infinity;
}

/** Most rows of `rowTokens` each that follow a head of `headTokens` within the budget; one row always runs. */
export function cachedRowsCap(
  headTokens: number,
  rowTokens: number,
  bytesPerCachedToken: number,
  budgetBytes = REPEATED_CACHE_BYTES,
): number {
  const bound = cachedTokenBound(bytesPerCachedToken, budgetBytes);
  return Math.max(1, Math.floor(bound / (headTokens + rowTokens)));
}

/** Left-padded int64 rows: pads first, so the last column is every row's last real token. */
export function leftPad(
  rows: number[][],
  padId: number,
): { ids: BigInt64Array; mask: BigInt64Array; width: number } {
  const width = Math.max(0, ...rows.map((r) => r.length));
  const ids = new BigInt64Array(rows.length * width).fill(BigInt(padId));
  const mask = new BigInt64Array(rows.length * width);
  rows.forEach((row, r) => {
    const offset = r * width + (width - row.length);
    row.forEach((id, j) => {
      ids[offset + j] = BigInt(id);
      mask[offset + j] = 1n;
    });
  });
  return { ids, mask, width };
}

export function batchStats(rows: number[][], width: number): PaddingStats {
  return { batches: 1, tokens: rows.reduce((n, r) => n + r.length, 0), paddedTokens: rows.length * width };
}

/** Lets queued messages (a cancel) through between batches; onnxruntime's run blocks the thread while it works. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
