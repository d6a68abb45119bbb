// Installs a profile or a selection into an agent's skills folder, by symlink or copy, through the export's package
// writer (same file rules, same path-clash refusals). The lock file in the target says what is ours: a folder that is
// not ours, or one that is not the library's package it claims to be, is reported as a clash and never overwritten.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallChange, InstallMode, InstallRequest, InstallResult } from '../../shared/install';
import type { CoreContext } from '../context';
import { safeFolderName } from '../export';
import { installFrozen } from './frozen-install';
import { applyRemoval, driftOf, removalOf } from './installed-state';
import type { LibrarySkill } from './library-package';
import { lockPath, readLock, writeLock } from './lock-file';
import { build } from './package-build';
import { selectionOf } from './selection';
import { resolveTargetDir, type TargetPlaces } from './targets';

export type InstallContext = Pick<CoreContext, 'db' | 'clock'> & {
  paths: Pick<CoreContext['paths'], 'dataDir' | 'dbFile'>;
};

interface Planned {
  folder: string;
  skill: LibrarySkill | null;
  change: InstallChange;
}

async function plan(
  ctx: InstallContext,
  targetDir: string,
  lock: Awaited<ReturnType<typeof readLock>>,
  skills: LibrarySkill[],
  set: string,
  mode: InstallMode,
): Promise<Planned[]> {
  const used = new Set<string>();
  const planned: Planned[] = [];
  for (const skill of skills) {
    // A skill this set installed before keeps its folder; a new one gets its name, made unique within the install.
    const previous = Object.entries(lock.entries).find(
      ([, e]) => e.set === set && e.skillId === skill.id,
    )?.[0];
    let folder = previous ?? safeFolderName(skill.name);
    if (!previous) for (let n = 2; used.has(folder); n++) folder = `${safeFolderName(skill.name)}-${n}`;
    used.add(folder);
    const base = { folder, skill: skill.name, skillId: skill.id };
    const entry = lock.entries[folder];
    let change: InstallChange;
    if (!entry) {
      const onDisk = await fsp.lstat(path.join(targetDir, folder)).catch(() => null);
      change = onDisk
        ? {
            ...base,
            action: 'clash',
            reason: 'the target already has a skill in this folder that Skill Curator did not install',
          }
        : { ...base, action: 'add' };
    } else if (entry.set !== set || entry.skillId !== skill.id) {
      change = {
        ...base,
        action: 'clash',
        reason: `this folder holds "${entry.skill}", installed with ${entry.set === 'skills' ? 'a selection' : entry.set}`,
      };
    } else {
      const drift = await driftOf(ctx, targetDir, folder, entry);
      if (drift) change = { ...base, action: 'clash', reason: drift };
      else if (entry.contentHash === skill.contentHash && entry.mode === mode)
        change = { ...base, action: 'unchanged' };
      else
        change = {
          ...base,
          action: 'update',
          reason: [
            entry.contentHash !== skill.contentHash ? 'the skill changed in the library' : '',
            entry.mode !== mode ? `${entry.mode} → ${mode}` : '',
          ]
            .filter(Boolean)
            .join('; '),
        };
    }
    planned.push({ folder, skill, change });
  }
  // Skills this set installed before that it no longer holds.
  for (const [folder, entry] of Object.entries(lock.entries)) {
    if (entry.set !== set || planned.some((p) => p.folder === folder)) continue;
    const drift = await driftOf(ctx, targetDir, folder, entry);
    const change: InstallChange =
      drift && drift !== 'it is gone from the target'
        ? {
            folder,
            skill: entry.skill,
            skillId: entry.skillId,
            action: 'clash',
            reason: `no longer in the set, but ${drift}; left in place`,
          }
        : { folder, skill: entry.skill, skillId: entry.skillId, action: 'remove' };
    planned.push({ folder, skill: null, change });
  }
  return planned;
}

export async function installSkills(
  ctx: InstallContext,
  req: InstallRequest,
  places: TargetPlaces = {},
): Promise<InstallResult> {
  const mode: InstallMode = req.mode ?? 'symlink';
  if (mode !== 'symlink' && mode !== 'copy')
    throw new CuratorError('INVALID_ARGUMENT', `Unknown install mode "${String(mode)}": symlink or copy`);
  const targetDir = resolveTargetDir(req.target, {
    ...places,
    projectDir: req.projectDir ?? places.projectDir,
  });
  if (req.frozen === true) return installFrozen(ctx, req, targetDir);
  const { skills, set } = selectionOf(ctx, req);
  const lock = await readLock(targetDir, ctx.paths.dbFile);
  const planned = await plan(ctx, targetDir, lock, skills, set, mode);
  const result: InstallResult = {
    targetDir,
    lockFile: lockPath(targetDir),
    mode,
    dryRun: req.dryRun === true,
    frozen: false,
    set,
    changes: planned.map((p) => p.change),
    missing: [],
  };
  if (result.dryRun) return result;

  await fsp.mkdir(targetDir, { recursive: true });
  const staging = await fsp.mkdtemp(path.join(targetDir, '.skill-curator-staging-'));
  const now = ctx.clock().toISOString();
  try {
    for (const p of planned) {
      const { action } = p.change;
      if (action === 'remove') {
        const removal = await removalOf(ctx, targetDir, p.folder, lock.entries[p.folder]!);
        await applyRemoval(removal);
        if (removal.kept) Object.assign(p.change, { action: 'clash', reason: removal.kept });
        else delete lock.entries[p.folder];
        continue;
      }
      if ((action !== 'add' && action !== 'update') || !p.skill) continue;
      const built = await build(ctx, p.skill, mode, staging);
      result.missing.push(...built.missing);
      const where = path.join(targetDir, p.folder);
      if (action === 'update') await fsp.rename(where, path.join(staging, `old-${p.folder}`));
      await fsp.rename(built.placed, where);
      lock.entries[p.folder] = {
        skill: p.skill.name,
        skillId: p.skill.id,
        contentHash: p.skill.contentHash,
        mode,
        set,
        ...(built.linkTo ? { linkTo: built.linkTo } : {}),
        files: built.files,
        installedAt: now,
      };
      await writeLock(targetDir, lock); // after every skill, so a failure later leaves a lock that tells the truth
    }
    await writeLock(targetDir, lock);
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return result;
}
