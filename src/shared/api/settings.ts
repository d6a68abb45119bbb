// Settings read and written through the schema in ../settings.
import type { Settings, SettingsPatch } from '../settings';

export interface SettingsApi {
  'settings.get'(req: Record<string, never>): Promise<Settings>;
  'settings.update'(req: { patch: SettingsPatch }): Promise<Settings>;
}

export const settingsMethods = ['settings.get', 'settings.update'] as const;
