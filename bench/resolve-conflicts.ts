// How long answering 1,000 open conflicts at once takes (library.resolveConflicts, one transaction each), against the
// import that left them open, measured in the same run: decides whether a plain call is enough or a job is needed.
// Usage: npx tsx bench/resolve-conflicts.ts [count=1000]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createCore } from '../src/core';
import type { ConflictResolution } from '../src/shared/api';
import { writeConflictingSources } from '../test/fixtures/skills/conflicting-sources';

const count = Number(process.argv[2] ?? 1000);

async function importTimed(core: ReturnType<typeof createCore>, source: string): Promise<number> {
  const start = performance.now();
  const job = await core['library.import']({ path: source, onConflict: 'record' });
  await core['jobs.wait']({ id: job.id });
  return performance.now() - start;
}

async function once(resolution: ConflictResolution, oneByOne = false): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-conflicts-'));
  const core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  try {
    const { first, second } = writeConflictingSources(dir, count);
    await importTimed(core, first);
    const importMs = await importTimed(core, second);
    const open = (await core['library.stats']({})).openConflicts;
    const dryStart = performance.now();
    await core['library.resolveConflicts']({ all: 'open', resolution, dryRun: true });
    const dryMs = performance.now() - dryStart;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const start = performance.now();
    let resolved = 0;
    if (oneByOne) {
      // The reference: the single-conflict call once per conflict (one transaction each).
      for (const c of await core['library.conflicts']({})) {
        await core['library.resolveConflict']({ id: c.id, resolution });
        resolved++;
      }
    } else {
      const result = await core['library.resolveConflicts']({
        all: 'open',
        resolution,
        overwriteEdits: true,
      });
      resolved = result.resolved;
    }
    const ms = performance.now() - start;
    delay.disable();
    const label = oneByOne ? `${resolution} one by one` : resolution;
    console.log(
      `${label.padEnd(20)} ${resolved}/${open} conflicts: ${ms.toFixed(0)} ms (${(ms / open).toFixed(2)} ms each)${oneByOne ? '' : `, dry run ${dryMs.toFixed(0)} ms`}, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms; the import that made them ${importMs.toFixed(0)} ms; ratio resolve/import ${(ms / importMs).toFixed(2)}`,
    );
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await once('keep-both', true);
for (const resolution of ['keep-both', 'replace', 'skip'] as const) await once(resolution);
