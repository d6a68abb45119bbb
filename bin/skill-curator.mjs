#!/usr/bin/env node
// The package's bin: runs the compiled CLI (out/cli, built by `npm ci` and `npm start`, or `npm run build:cli`);
// falls back to the TypeScript sources through tsx when no build is there.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'out', 'cli', 'main.mjs');
if (existsSync(compiled)) await import(pathToFileURL(compiled).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href);
}
