// Walk cost, without the database: (1) listing and reading every package of the zjunlp set (the price of the checks
// each file now gets: lstat, a non-blocking open, fstat, identity), (2) a symlink chain of two links per level, whose
// walk doubles per level unless the folder-visit cap stops it.
// Run: npx tsx bench/walk-hostile.ts [maxChainLevels=16] [path-to-zjunlp-skills]
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSource } from '../src/core/skills/sources/open-source';
import { defaultImportSettings } from '../src/core/skills/types';

const repoRoot = path.resolve(import.meta.dirname, '..');
const maxLevels = Number(process.argv[2] ?? 16);
const zjunlp = path.resolve(process.argv[3] ?? path.resolve(repoRoot, '../shared/data/zjunlp-skills'));
const signal = new AbortController().signal;

async function readAll(
  folder: string,
): Promise<{ seconds: number; cpu: number; items: number; rejected: number }> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const opened = await openSource('folder', folder, defaultImportSettings, signal);
  let rejected = 0;
  for (const item of opened.items) {
    const result = item.type === 'candidate' ? await item.load() : { ok: false };
    if (!result.ok) rejected += 1;
  }
  await opened.close();
  const used = process.cpuUsage(cpu);
  return {
    seconds: Number(process.hrtime.bigint() - start) / 1e9,
    cpu: (used.user + used.system) / 1e6,
    items: opened.items.length,
    rejected,
  };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-walk-'));
try {
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await readAll(zjunlp));
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const cpus = runs.map((r) => r.cpu).sort((a, b) => a - b);
  console.log(
    `zjunlp read       median ${times[2]!.toFixed(2)} s of 5 (min ${times[0]!.toFixed(2)}), main-thread CPU median ${cpus[2]!.toFixed(2)} s, ${runs[0]!.items} items, ${runs[0]!.rejected} rejected`,
  );
  for (let levels = 8; levels <= maxLevels; levels += 2) {
    const root = path.join(tmp, `chain-${levels}`);
    const chain = path.join(root, 'm-chain', 'references');
    mkdirSync(chain, { recursive: true });
    writeFileSync(path.join(root, 'm-chain', 'SKILL.md'), '---\nname: m-chain\ndescription: d\n---\n');
    for (let i = 0; i <= levels; i++) mkdirSync(path.join(chain, `L${i}`));
    for (let i = 0; i < levels; i++)
      for (const l of ['a', 'b']) symlinkSync(path.join(chain, `L${i + 1}`), path.join(chain, `L${i}`, l));
    const r = await readAll(root);
    console.log(
      `chain ${String(levels).padStart(2)} levels  ${r.seconds.toFixed(2)} s (${2 ** (levels + 1)} ways down), ${r.rejected ? 'rejected' : 'imported'}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
