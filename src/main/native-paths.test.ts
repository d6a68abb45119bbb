// Which better-sqlite3 binary and sqlite-vec extension the desktop app loads, in a checkout and when packaged.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dbOptionsFor } from './native-paths';

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'native-paths-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('dbOptionsFor', () => {
  it('keeps the Node build in a checkout without an Electron build', () => {
    const appPath = tempDir();
    expect(dbOptionsFor({ isPackaged: false, appPath, resourcesPath: appPath, env: {} })).toEqual({});
  });

  it('uses the Electron build from build/electron-native in a checkout', () => {
    const appPath = tempDir();
    const binding = path.join(appPath, 'build', 'electron-native', 'better_sqlite3.node');
    mkdirSync(path.dirname(binding), { recursive: true });
    writeFileSync(binding, '');
    expect(dbOptionsFor({ isPackaged: false, appPath, resourcesPath: appPath, env: {} })).toEqual({
      nativeBinding: binding,
    });
  });

  it('lets SKILL_CURATOR_SQLITE_BINDING name the binary', () => {
    const appPath = tempDir();
    const options = dbOptionsFor({
      isPackaged: false,
      appPath,
      resourcesPath: appPath,
      env: { SKILL_CURATOR_SQLITE_BINDING: '/opt/electron/better_sqlite3.node' },
    });
    expect(options.nativeBinding).toBe('/opt/electron/better_sqlite3.node');
  });

  it('loads sqlite-vec from app.asar.unpacked when packaged', () => {
    const resourcesPath = tempDir();
    const osName = process.platform === 'win32' ? 'windows' : process.platform;
    const ext = process.platform === 'win32' ? 'dll' : process.platform === 'darwin' ? 'dylib' : 'so';
    const vec = path.join(
      resourcesPath,
      'app.asar.unpacked',
      'node_modules',
      `sqlite-vec-${osName}-${process.arch}`,
      `vec0.${ext}`,
    );
    mkdirSync(path.dirname(vec), { recursive: true });
    writeFileSync(vec, '');
    const options = dbOptionsFor({
      isPackaged: true,
      appPath: path.join(resourcesPath, 'app.asar'),
      resourcesPath,
      env: {},
    });
    expect(options).toEqual({ vecExtensionPath: vec });
  });
});
