// The settings part of the API.
import type { SettingsApi } from '../../shared/api';
import type { CoreContext } from '../context';

export function createSettingsService(ctx: CoreContext): SettingsApi {
  return {
    'settings.get': async () => ctx.settings.get(),
    'settings.update': async (req) => ctx.settings.update(req.patch ?? {}),
  };
}
