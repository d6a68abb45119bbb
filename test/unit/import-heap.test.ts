// boundHeapGrowth changes how far V8 lets the heap grow, and only while an import holds it. Measured in child processes
// (V8's flags are per process) with an allocation pattern like an import's; the figures are deterministic: 124 MiB free
// against 75-78 MiB bound on Node 20.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const churn = fileURLToPath(new URL('../fixtures/heap/churn.ts', import.meta.url));
const run = (mode: string): Record<string, number> =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', churn, mode], { encoding: 'utf8' }),
  ) as Record<string, number>;

describe('the heap while an import runs', () => {
  it('grows less inside boundHeapGrowth, and as V8 likes once the last bound is restored', () => {
    const { free } = run('free');
    const { bound } = run('bound');
    const { stillBound, freeAgain } = run('nested');
    expect(bound).toBeLessThan(0.8 * free!);
    expect(stillBound).toBeLessThan(0.8 * free!);
    expect(freeAgain).toBeGreaterThan(1.25 * stillBound!);
  }, 60_000);
});
