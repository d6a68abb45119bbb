// Installing skills into agent folders (symlink or copy, with a lock file) and the context-budget preview.
export { budgetDefaults, budgetListing, previewBudget, type ListingSkill } from './budget';
export { installSkills, selectionOf, type InstallContext } from './install';
export { LOCK_NAME, readLock, type LockEntry, type LockFile } from './lock-file';
export { installTargets, isKnownTarget, resolveTargetDir, type TargetPlaces } from './targets';
export { uninstallSkills } from './uninstall';
