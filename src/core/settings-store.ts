// Settings persisted in the library file, validated by the shared schema; unknown or invalid values fall back to defaults.
import { CuratorError } from '../shared/errors';
import { buildSettingsSchema, type Settings, type SettingsPatch } from '../shared/settings-schema';
import { schema } from './zod';
import type { Statement } from 'better-sqlite3';
import type { Db } from './store/db';

const KEY = 'app';

/** Built, and zod loaded, at the first settings read. */
const settingsSchema = schema(buildSettingsSchema);

function defaultSettings(): Settings {
  return settingsSchema().parse({});
}

/** Sections the engines are built from: a change to one means loaded engines are out of date. */
const engineSections = ['engines', 'models', 'remote'] as const;

/**
 * The settings as the library file holds them now. Another process (the CLI beside a running app) may write them, so
 * every read checks the stored text (one row by key) and parses it again only when it changed, and an update merges
 * its patch into what is stored, not into this process's copy.
 */
export class SettingsStore {
  private cachedText: string | null | undefined;
  private cached: Settings | undefined;
  private readonly read: Statement;

  constructor(
    private readonly db: Db,
    /** Called when a read finds that another process changed the sections the engines are built from. */
    private readonly onEnginesChangedElsewhere?: () => void,
  ) {
    this.read = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  }

  get(): Settings {
    // A closed library (a host shutting down) answers with what it last read.
    if (this.cached && !this.db.open) return this.cached;
    const text = (this.read.get(KEY) as string | undefined) ?? null;
    if (this.cached && text === this.cachedText) return this.cached;
    const before = this.cached;
    const parsed = text !== null ? settingsSchema().safeParse(JSON.parse(text)) : undefined;
    this.cached = parsed?.success ? parsed.data : defaultSettings();
    this.cachedText = text;
    if (before && engineSections.some((k) => JSON.stringify(before[k]) !== JSON.stringify(this.cached![k])))
      this.onEnginesChangedElsewhere?.();
    return this.cached;
  }

  update(patch: SettingsPatch): Settings {
    return this.db
      .transaction(() => {
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
        const text = JSON.stringify(parsed.data);
        this.db
          .prepare(
            'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          )
          .run(KEY, text);
        this.cached = parsed.data;
        this.cachedText = text;
        return parsed.data;
      })
      .immediate();
  }
}
