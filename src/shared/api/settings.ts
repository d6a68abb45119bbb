// Settings read and written through the schema in ../settings.
import type { Settings, SettingsPatch } from '../settings';

export interface SettingsApi {
  'settings.get'(req: Record<string, never>): Promise<Settings>;
  'settings.update'(req: { patch: SettingsPatch }): Promise<Settings>;
  /** Where this host keeps the bundled samples, as absolute paths a screen can name or import. */
  'settings.paths'(req: Record<string, never>): Promise<SamplePaths>;
}

export interface SamplePaths {
  resourcesDir: string;
  sampleLibrary: string;
  sampleStates: string;
  sampleTasks: string;
  /** The library this host serves: what `--data` / `--db` name for a CLI or MCP server on the same library. */
  dataDir?: string;
  dbFile?: string;
}

export const settingsMethods = ['settings.get', 'settings.update', 'settings.paths'] as const;
