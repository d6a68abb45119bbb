// The settings part of the API.
import type { SettingsApi } from '../../shared/api';
import type { CoreContext } from '../context';

export function createSettingsService(ctx: CoreContext): SettingsApi {
  return {
    'settings.get': async () => ctx.settings.get(),
    'settings.update': async (req) => {
      const patch = req.patch ?? {};
      const next = ctx.settings.update(patch);
      // Engines are built from these sections: load them again on next use.
      if (patch.engines || patch.models || patch.remote) {
        await ctx.engines.reset();
        ctx.events.emit({ type: 'models.changed' });
      }
      return next;
    },
  };
}
