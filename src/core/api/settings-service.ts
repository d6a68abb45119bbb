// The settings part of the API, and where the bundled samples are.
import path from 'node:path';
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
    'settings.paths': async () => ({
      resourcesDir: ctx.paths.resourcesDir,
      sampleLibrary: path.join(ctx.paths.resourcesDir, 'sample-library'),
      sampleStates: path.join(ctx.paths.resourcesDir, 'sample-states.jsonl'),
      sampleTasks: path.join(ctx.paths.resourcesDir, 'sample-tasks.jsonl'),
      dataDir: ctx.paths.dataDir,
      dbFile: ctx.paths.dbFile,
    }),
  };
}
