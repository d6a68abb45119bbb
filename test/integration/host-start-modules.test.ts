// What `serve` loads before its first answer: the modules its path imports statically (the CLI entry, then the host,
// the core and the HTTP host it imports when the command runs). The packages only some calls need load when first
// used, so none of them may come back as a static import on that path.
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../fixtures/jobs/child-process';

const servePath = [
  'src/cli/main.ts',
  'src/cli/host.ts',
  'src/cli/conversion-note.ts',
  'src/core/index.ts',
  'src/server/http-host.ts',
];

const loadedWhenUsed = [
  'zod',
  'yaml',
  'openai',
  'isomorphic-git',
  'chokidar',
  'protobufjs',
  'yauzl',
  'yazl',
  '@huggingface/transformers',
  'onnxruntime-node',
  '@modelcontextprotocol/sdk',
];

describe('the host before its first answer', () => {
  it('imports none of the packages that load when first used', async () => {
    const result = await build({
      absWorkingDir: repoRoot,
      entryPoints: servePath,
      outdir: path.join(repoRoot, 'out', 'unused'),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const inputs = result.metafile.inputs;
    const seen = new Set(servePath);
    const queue = [...servePath];
    const packages = new Set<string>();
    while (queue.length > 0) {
      for (const i of inputs[queue.shift()!]?.imports ?? []) {
        if (i.kind !== 'import-statement') continue;
        if (i.external) packages.add(i.path);
        else if (!seen.has(i.path)) {
          seen.add(i.path);
          queue.push(i.path);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(100);
    expect(packages).toContain('better-sqlite3');
    const early = [...packages].filter((p) => loadedWhenUsed.some((l) => p === l || p.startsWith(`${l}/`)));
    // openai's error classes (a small module) are the one part of it the core needs up front.
    expect(early.filter((p) => p !== 'openai/core/error')).toEqual([]);
  }, 30_000);
});
