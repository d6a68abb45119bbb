// Removes what the lock file says this library installed (one set, or all), and nothing else.
import type { UninstallRequest, UninstallResult } from '../../shared/install';
import { removeInstalled } from './installed-state';
import type { InstallContext } from './install';
import { readLock, writeLock } from './lock-file';
import { resolveTargetDir, type TargetPlaces } from './targets';

export async function uninstallSkills(
  ctx: InstallContext,
  req: UninstallRequest,
  places: TargetPlaces = {},
): Promise<UninstallResult> {
  const targetDir = resolveTargetDir(req.target, {
    ...places,
    projectDir: req.projectDir ?? places.projectDir,
  });
  const lock = await readLock(targetDir, ctx.paths.dbFile);
  const set =
    req.profile === undefined
      ? null
      : req.profile.startsWith('profile:') || req.profile === 'skills'
        ? req.profile
        : `profile:${req.profile}`;
  const result: UninstallResult = { targetDir, dryRun: req.dryRun === true, removed: [], kept: [] };
  for (const [folder, entry] of Object.entries(lock.entries)) {
    if (set !== null && entry.set.toLowerCase() !== set.toLowerCase()) continue;
    if (result.dryRun) {
      result.removed.push(folder);
      continue;
    }
    const kept = await removeInstalled(targetDir, folder, entry);
    if (kept) result.kept.push({ folder, reason: kept });
    else result.removed.push(folder);
    // Either way the entry goes: what is left in the folder now belongs to whoever changed it.
    delete lock.entries[folder];
  }
  if (!result.dryRun) await writeLock(targetDir, lock);
  return result;
}
