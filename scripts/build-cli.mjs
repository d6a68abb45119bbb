// Compiles the CLI (and with it the HTTP host) and the model worker into out/cli with esbuild, so the package's bin
// and `npm start` run plain JavaScript; tsx stays for development. Packages stay external: node_modules is resolved
// at run time, as in development. Runs from `npm ci` (prepare) and `npm start`; takes about a second.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Chunk names carry content hashes: start clean so no stale chunk stays beside the new ones.
rmSync(path.join(root, 'out', 'cli'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/cli/main.ts',
    'model-worker': 'src/core/models/worker/node-entry.ts',
    'jsonl-load-worker': 'src/core/skills/sources/jsonl-load-worker.ts',
  },
  outdir: 'out/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
if (process.argv.includes('--analyse')) {
  const { analyzeMetafile } = await import('esbuild');
  console.log(await analyzeMetafile(result.metafile));
}
