// Where the CLI finds its own files and the user's data; kept free of core imports so `--help` loads nothing else.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface GlobalOptions {
  db?: string;
  data?: string;
  json?: boolean;
  verbose?: boolean;
}

// Two folders up from src/cli (tsx) and from out/cli (the compiled build) alike.
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const resourcesDir = path.join(repoRoot, 'resources');

export function defaultDataDir(): string {
  if (process.env.SKILL_CURATOR_DATA) return process.env.SKILL_CURATOR_DATA;
  const base = process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'skill-curator');
}
