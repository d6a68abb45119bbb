#!/usr/bin/env node
// The package's bin: runs the compiled CLI (out/cli, built by `npm ci`, `npm start` and `npm run build:cli`). In a
// checkout whose sources are newer than that build (after an edit or a pull), or with no build, it runs the
// TypeScript sources through tsx instead and says so, so it never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'out', 'cli', 'main.mjs');
const sources = path.join(root, 'src');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const built = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
const stale = built > 0 && existsSync(sources) && newestSource(sources) > built;
if (built > 0 && !stale) await import(pathToFileURL(compiled).href);
else {
  if (stale)
    process.stderr.write(
      'note: out/cli is older than src/; running the sources (npm run build:cli to rebuild)\n',
    );
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(sources, 'cli', 'main.ts')).href);
}
