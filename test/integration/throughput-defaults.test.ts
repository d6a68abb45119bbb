// The throughput a cost estimate assumes before an engine has been timed (issue 10, item 4): a reranker on quantised
// weights (dtype auto picks q8 on the CPU; its id ends `@q8`) runs about twice the fp32 prompt tokens per second, so
// its first estimate assumes that instead of the fp32 figure; once timed, the measurement counts. Real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultTokensPerSecond,
  quantizedSpeedup,
  recordThroughput,
  tokensPerSecond,
} from '../../src/core/select/throughput';
import { openDb } from '../../src/core/store/db';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sc-throughput-'));
const db = openDb(path.join(dir, 'library.db'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tokensPerSecond before any measurement', () => {
  it('assumes the fp32 figure for fp32 weights and twice it for q8 weights, until the engine is timed', () => {
    const fp32 = defaultTokensPerSecond['cross-encoder'];
    expect(quantizedSpeedup).toBe(2);
    expect(tokensPerSecond(db, 'cross-encoder', 'Qwen3-Reranker-0.6B')).toEqual({
      tokensPerSecond: fp32,
      measured: false,
    });
    expect(tokensPerSecond(db, 'cross-encoder', 'Qwen3-Reranker-0.6B@q8')).toEqual({
      tokensPerSecond: 2 * fp32,
      measured: false,
    });
    // fp16 is not quantised: its r differ by rounding and its speed on a CPU is not q8's.
    expect(tokensPerSecond(db, 'cross-encoder', 'Qwen3-Reranker-0.6B@fp16').tokensPerSecond).toBe(fp32);
    recordThroughput(
      db,
      [{ tier: 'cross-encoder', engine: 'Qwen3-Reranker-0.6B@q8', tokens: 3000, ms: 60_000 }],
      new Date(),
    );
    expect(tokensPerSecond(db, 'cross-encoder', 'Qwen3-Reranker-0.6B@q8')).toEqual({
      tokensPerSecond: 50,
      measured: true,
    });
  });
});
