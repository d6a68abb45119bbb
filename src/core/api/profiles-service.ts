// Profiles and installs for every host: the core functions behind the contract's profiles.* and install.* methods.
import type { ProfilesApi } from '../../shared/api/profiles';
import type { CoreContext } from '../context';
import { assertGatePasses } from '../audit/audit-gate';
import {
  installSkills,
  installTargets,
  previewBudget,
  previewOverrides,
  readLock,
  resolveTargetDir,
  selectionOf,
  uninstallSkills,
  verifyInstall,
  writeOverrides,
  type TargetPlaces,
} from '../install';
import {
  addToProfile,
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  removeFromProfile,
  updateProfile,
} from '../profiles';

/** places: where HOME is (tests give a temporary one); the host's home and working folder otherwise. */
export function createProfilesService(ctx: CoreContext, places: TargetPlaces = {}): ProfilesApi {
  return {
    'profiles.list': async () => listProfiles(ctx),
    'profiles.get': async (req) => getProfile(ctx, req.name),
    'profiles.create': async (req) => createProfile(ctx, req),
    'profiles.update': async (req) => updateProfile(ctx, req),
    'profiles.add': async (req) => addToProfile(ctx, req.name, req.skillIds ?? []),
    'profiles.remove': async (req) => removeFromProfile(ctx, req.name, req.skillIds ?? []),
    'profiles.delete': async (req) => {
      deleteProfile(ctx, req.name);
      return { deleted: req.name };
    },
    'install.targets': async (req) =>
      installTargets.map((target) => ({
        target,
        dir: resolveTargetDir(target, { ...places, projectDir: req?.projectDir ?? places.projectDir }),
      })),
    'install.run': async (req) => {
      // A frozen install reproduces what its lock pinned, audited when it was first installed.
      // The target is checked first: a bad folder is said before anything is audited.
      resolveTargetDir(req?.target, { ...places, projectDir: req?.projectDir ?? places.projectDir });
      if (req?.frozen !== true)
        await assertGatePasses(
          ctx,
          selectionOf(ctx, req).skills.map((s) => s.id),
          req?.dryRun ? 'installable' : 'installed',
        );
      return installSkills(ctx, req, places);
    },
    'install.uninstall': (req) => uninstallSkills(ctx, req, places),
    'install.list': async (req) => {
      const targetDir = resolveTargetDir(req.target, {
        ...places,
        projectDir: req.projectDir ?? places.projectDir,
      });
      const lock = await readLock(targetDir, ctx.paths.dbFile);
      return {
        targetDir,
        entries: Object.entries(lock.entries).map(([folder, e]) => ({
          folder,
          skill: e.skill,
          skillId: e.skillId,
          contentHash: e.contentHash,
          mode: e.mode,
          set: e.set,
          installedAt: e.installedAt,
        })),
      };
    },
    'install.budget': async (req) => previewBudget(ctx, req, places),
    'install.verify': (req) => verifyInstall(ctx, req, places),
    'install.overrides': (req) => previewOverrides(ctx, req, places),
    'install.writeOverrides': (req) => writeOverrides(ctx, req, places),
  };
}
