// Where native pieces are in development and in a packaged app (better-sqlite3 for Electron's ABI, sqlite-vec).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OpenDbOptions } from '../core/store/db';

export interface NativeContext {
  isPackaged: boolean;
  appPath: string;
  resourcesPath: string;
  env: Record<string, string | undefined>;
}

/**
 * In a checkout, node_modules holds the Node build of better-sqlite3 (the tests need it); an Electron build made with
 * `npm run rebuild:electron` lives in build/electron-native. A packaged app was rebuilt by electron-builder in place.
 */
export function dbOptionsFor(ctx: NativeContext): OpenDbOptions {
  const options: OpenDbOptions = {};
  const explicit = ctx.env.SKILL_CURATOR_SQLITE_BINDING;
  const devBuild = path.join(ctx.appPath, 'build', 'electron-native', 'better_sqlite3.node');
  if (explicit) options.nativeBinding = explicit;
  else if (!ctx.isPackaged && existsSync(devBuild)) options.nativeBinding = devBuild;
  if (ctx.isPackaged) {
    // Loadable extensions cannot be read from inside the asar archive.
    const unpacked = path.join(ctx.resourcesPath, 'app.asar.unpacked', 'node_modules');
    const ext = process.platform === 'win32' ? 'dll' : process.platform === 'darwin' ? 'dylib' : 'so';
    const candidate = path.join(unpacked, `sqlite-vec-${platformName()}`, `vec0.${ext}`);
    if (existsSync(candidate)) options.vecExtensionPath = candidate;
  }
  return options;
}

function platformName(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return `${os}-${process.arch}`;
}
