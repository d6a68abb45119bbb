// Build of the three Electron parts (`npm run build`); the renderer part is the same as the browser-mode build.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './vite.web.config';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      rollupOptions: {
        input: {
          index: resolve(root, 'src/main/index.ts'),
          // The core's own utilityProcess entry (process.parentPort), built beside index.js.
          'model-worker': resolve(root, 'src/core/models/worker/parent-port-entry.ts'),
          // The JSONL import's load worker (a worker thread), found beside the code that starts it.
          'jsonl-load-worker': resolve(root, 'src/core/skills/sources/jsonl-load-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload cannot require(): bundle everything into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
