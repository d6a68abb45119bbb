// Removes what the lock file says this library installed (one set, or all), and nothing else: each folder is compared
// with the library's package its entry names before anything in it goes.
import type { UninstallRequest, UninstallResult } from '../../shared/install';
import { applyRemoval, removalOf } from './installed-state';
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
    // A dry run answers from the same plan the real run carries out, so it announces only what would go.
    const removal = await removalOf(ctx, targetDir, folder, entry);
    if (removal.kept) result.kept.push({ folder, reason: removal.kept });
    else result.removed.push(folder);
    if (result.dryRun) continue;
    await applyRemoval(removal);
    // Either way the entry goes: what is left in the folder now belongs to whoever changed it.
    delete lock.entries[folder];
  }
  if (!result.dryRun) await writeLock(targetDir, lock);
  return result;
}
