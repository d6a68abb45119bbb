// Where each agent looks for skills. Claude Code: ~/.claude/skills and <project>/.claude/skills; Codex:
// ~/.codex/skills; the cross-client Agent Skills folder: <project>/.agents/skills; or any absolute folder.
import os from 'node:os';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallTargetKind } from '../../shared/install';

export const installTargets: readonly InstallTargetKind[] = ['claude', 'claude-project', 'codex', 'agents'];

export function isKnownTarget(t: string): t is InstallTargetKind {
  return (installTargets as readonly string[]).includes(t);
}

export interface TargetPlaces {
  /** Defaults to os.homedir() (which follows $HOME). */
  home?: string;
  /** An absolute folder; defaults to the working folder. */
  projectDir?: string;
}

export function resolveTargetDir(target: string, places: TargetPlaces = {}): string {
  if (typeof target !== 'string' || target.trim() === '')
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Give a target: ${installTargets.join(', ')} or a folder path`,
    );
  // A relative project folder would mean the host's working folder (the HTTP server's), never what the caller meant.
  if (places.projectDir !== undefined && !path.isAbsolute(places.projectDir))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `The project folder "${places.projectDir}" is relative; give an absolute folder path`,
    );
  const home = places.home ?? os.homedir();
  const project = path.resolve(places.projectDir ?? process.cwd());
  switch (target) {
    case 'claude':
      return path.join(home, '.claude', 'skills');
    case 'claude-project':
      return path.join(project, '.claude', 'skills');
    case 'codex':
      return path.join(home, '.codex', 'skills');
    case 'agents':
      return path.join(project, '.agents', 'skills');
    default:
      if (!path.isAbsolute(target))
        throw new CuratorError(
          'INVALID_ARGUMENT',
          `Unknown target "${target}": use ${installTargets.join(', ')} or an absolute folder path`,
        );
      return path.resolve(target);
  }
}
