// The README's start command runs `demo`: on a fresh data folder it imports the sample library and its reviewed
// states, searches, answers the demo task with the heating skill then the coffee machine's, and evaluates the sample
// tasks, printing full beside the baselines (Hit@1 and stage coverage among them). The real CLI, no server.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI: demo --no-serve (what npm start runs)', () => {
  it('imports, answers the demo task and evaluates the sample tasks, full beside the baselines', async () => {
    const demo = await runCli(dataDir, ['demo', '--no-serve']);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('Sample library: 48 added');
    expect(demo.stdout).toContain('Reviewed states: 48 applied');
    expect(demo.stdout).toMatch(
      /Selection for "put a hot mug in the coffee machine" \(full, 2 stages\): household-heat-object-microwave -> household-make-coffee/,
    );
    expect(demo.stdout).toContain('variant    k  Hit@1 cover precision recall  F1    exact  size');
    const row = (variant: string, k: string) =>
      demo.stdout
        .split('\n')
        .find((l) => l.startsWith(`${variant.padEnd(10)} ${k.padEnd(2)} `))!
        .trim()
        .split(/\s+/)
        .slice(2)
        .map(Number);
    const full = row('full', '-');
    const dense1 = row('dense', '1');
    expect(full).toHaveLength(7);
    // Hit@1 and stage coverage of full at least the recall's own top-1's (issue 10's offline target).
    expect(full[0]).toBeGreaterThanOrEqual(dense1[0]!);
    expect(full[1]).toBeGreaterThanOrEqual(dense1[1]!);
    // Run again on the same folder: nothing is imported twice.
    const again = await runCli(dataDir, ['demo', '--no-serve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 added');
  }, 120_000);
});
