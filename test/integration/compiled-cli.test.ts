// The compiled CLI (scripts/build-cli.mjs, what the package's bin and `npm start` run): it answers the same commands
// as the sources, finds the resources beside the repo, and forks the compiled model worker.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { createOnnxEmbedder } from '../../src/core/models/onnx/qwen3-embedder';
import { forkModelWorker } from '../../src/core/models/worker/fork-channel';
import { createModelWorkerHost } from '../../src/core/models/worker/host';
import { createWorkerEmbedder } from '../../src/core/models/worker/worker-scorers';
import { repoRoot } from '../fixtures/jobs/child-process';
import { ensureTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';

const outDir = path.join(repoRoot, 'out', 'cli');
const bin = path.join(repoRoot, 'bin', 'skill-curator.mjs');
let data: string;

beforeAll(() => {
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')], { cwd: repoRoot });
  data = mkdtempSync(path.join(os.tmpdir(), 'sc-compiled-'));
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--data', data, ...args], {
    cwd: os.tmpdir(), // not the repo: the build must find its own files
    encoding: 'utf8',
    env: { ...process.env, SKILL_CURATOR_API_KEY: '' },
  });
  return { ...result, stdout: result.stdout, stderr: result.stderr };
}

describe('the compiled CLI', () => {
  it('is what the bin runs, and answers --help without loading the core', () => {
    expect(existsSync(path.join(outDir, 'main.mjs'))).toBe(true);
    expect(existsSync(path.join(outDir, 'model-worker.mjs'))).toBe(true);
    // Only commander and Node's own modules load up front; the core and its packages load when a command runs.
    const entry = readFileSync(path.join(outDir, 'main.mjs'), 'utf8');
    const staticImports = [...entry.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
    expect(staticImports.filter((s) => s !== 'commander' && !s.startsWith('node:'))).toEqual([]);
    const help = run('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: skill-curator');
    expect(help.stdout).toContain('select');
  });

  it('imports the sample library, searches it and selects with the offline preset', () => {
    const imported = run('--json', 'import', path.join(repoRoot, 'resources', 'sample-library'));
    expect(imported.status, imported.stderr).toBe(0);
    // The report is printed once: under `report`, not again as the job's result.
    const printed = JSON.parse(imported.stdout) as {
      job: { status: string; result?: unknown };
      report: unknown;
    };
    expect(printed.job).toMatchObject({ status: 'done' });
    expect(printed.job.result).toBeUndefined();
    expect(printed.report).toMatchObject({ counts: { added: 48 } });
    const search = run('--json', 'search', 'microwave');
    expect(search.status, search.stderr).toBe(0);
    expect(search.stdout).toContain('household-heat-object-microwave');
    const select = run('--json', 'select', '--preset', 'offline', 'put a hot mug in the coffee machine');
    expect(select.status, select.stderr).toBe(0);
    const answer = JSON.parse(select.stdout) as { variant: string; answer: { name: string }[] };
    expect(answer.variant).toBe('full');
    expect(answer.answer.length).toBeGreaterThan(0);
    for (const pick of answer.answer) expect(pick.name).toMatch(/^household-/);
  });

  it('forks the compiled model worker, which embeds as the in-process model does', async () => {
    const folder = ensureTinyQwen3({ head: 'base', dtypes: ['fp32'] });
    const logger = createLogger('warn', () => {});
    const host = createModelWorkerHost({
      spawn: forkModelWorker({ entry: path.join(outDir, 'model-worker.mjs') }),
      logger,
    });
    try {
      const embedder = await createWorkerEmbedder(host, { folder, device: 'cpu', dtype: 'fp32' });
      const local = await createOnnxEmbedder({ folder, device: 'cpu', dtype: 'fp32' });
      const texts = ['heat a mug', 'clean a pan'];
      const remote = await embedder.embed(texts, { role: 'document' });
      const here = await local.embed(texts, { role: 'document' });
      expect(Array.from(remote[1]!)).toEqual(Array.from(here[1]!));
    } finally {
      await host.close();
    }
  });

  it('runs the sources, and says so, when they are newer than the build', () => {
    const entry = path.join(outDir, 'main.mjs');
    utimesSync(entry, new Date('2001-01-01'), new Date('2001-01-01'));
    try {
      const help = run('--help');
      expect(help.status, help.stderr).toBe(0);
      expect(help.stderr).toContain('out/cli is older than src/; running the sources');
      expect(help.stdout).toContain('Usage: skill-curator');
    } finally {
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')], { cwd: repoRoot });
    }
  });
});
