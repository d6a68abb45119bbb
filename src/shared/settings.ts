// The settings schema with zod's ES build, for the browser UI, the MCP server, scripts and tests; the core builds the same
// schema at its first settings read (settings-store.ts), so a host starts without zod.
import { z } from 'zod';
import { lazy } from './lazy';
import { buildSettingsSchema, type Settings } from './settings-schema';

export { DEFAULT_RECALL_INSTRUCTION, buildSettingsSchema } from './settings-schema';
export type { Settings, SettingsPatch } from './settings-schema';

export const settingsSchema = lazy(() => buildSettingsSchema(z));

export function defaultSettings(): Settings {
  return settingsSchema().parse({});
}
