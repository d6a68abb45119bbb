// Installing skills into agent folders (symlink or copy, with a lock file), verifying them, the context-budget preview
// and the Claude Code skillOverrides that fit it.
export { budgetDefaults, budgetListing, previewBudget, type ListingSkill } from './budget';
export { installSkills, type InstallContext } from './install';
export { LOCK_NAME, readLock, type LockEntry, type LockFile } from './lock-file';
export { selectionOf } from './selection';
export { previewOverrides, writeOverrides } from './skill-overrides';
export { installTargets, isKnownTarget, resolveTargetDir, type TargetPlaces } from './targets';
export { uninstallSkills } from './uninstall';
export { verifyInstall } from './verify';
