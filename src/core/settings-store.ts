// Settings persisted in the library file, validated by the shared schema; unknown or invalid values fall back to defaults.
import { CuratorError } from '../shared/errors';
import { buildSettingsSchema, type Settings, type SettingsPatch } from '../shared/settings-schema';
import { schema } from './zod';
import type { Db } from './store/db';

const KEY = 'app';

/** Built, and zod loaded, at the first settings read. */
const settingsSchema = schema(buildSettingsSchema);

function defaultSettings(): Settings {
  return settingsSchema().parse({});
}

export class SettingsStore {
  private cached: Settings | undefined;

  constructor(private readonly db: Db) {}

  get(): Settings {
    if (this.cached) return this.cached;
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as
      { value: string } | undefined;
    const parsed = row ? settingsSchema().safeParse(JSON.parse(row.value)) : undefined;
    this.cached = parsed?.success ? parsed.data : defaultSettings();
    return this.cached;
  }

  update(patch: SettingsPatch): Settings {
    const current = this.get() as Record<string, unknown>;
    const merged: Record<string, unknown> = { ...current };
    for (const [section, values] of Object.entries(patch)) {
      if (values === undefined) continue;
      merged[section] = { ...(current[section] as object), ...values };
    }
    const parsed = settingsSchema().safeParse(merged);
    if (!parsed.success) {
      throw new CuratorError(
        'INVALID_ARGUMENT',
        'Invalid settings',
        parsed.error.issues.map((i) => ({
          path: i.path.join('.'),
          message: i.message,
        })),
      );
    }
    this.db
      .prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(KEY, JSON.stringify(parsed.data));
    this.cached = parsed.data;
    return parsed.data;
  }
}
