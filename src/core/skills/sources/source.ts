// What every import source (folder, zip, single file, JSONL) hands the importer: candidates to load, and findings that reject.
import type { BuildResult } from '../skill-md';
import type { ValidationIssue } from '../types';

/** A place in the source that holds one skill; loading reads and validates it. */
export interface SkillCandidate {
  type: 'candidate';
  relPath: string;
  /** SKILL.md (or the JSONL line) as the user should read it in a message. */
  file: string;
  /** Digest of the raw text the skill is built from, when the source knows it before loading (JSONL lines). */
  digest?: string;
  /** The line the skill is on, for sources of one skill a line (the line its stored warnings are moved to). */
  line?: number;
  load(): Promise<BuildResult>;
}

/** Something in the source that cannot become a skill (an unsafe zip entry, a symlink out of the source, a bad line). */
export interface SourceRejection {
  type: 'rejection';
  /** The skill location it belongs to, when it belongs to one (so a re-import does not count that skill as removed). */
  relPath: string;
  file: string;
  issues: ValidationIssue[];
}

export type SourceItem = SkillCandidate | SourceRejection;

export interface OpenedSource {
  items: SourceItem[];
  /**
   * Set by a source that builds its skills in a worker thread: the loads it takes at once. Its items are then loaded
   * ahead of the writes (the worker builds the next batch while this thread writes one); other sources load each
   * batch when it is written, a few reads at once.
   */
  workerLoads?: number;
  close(): Promise<void>;
}

export function rejection(
  relPath: string,
  file: string,
  rule: string,
  message: string,
  line?: number,
): SourceRejection {
  return {
    type: 'rejection',
    relPath,
    file,
    issues: [{ severity: 'error', rule, message, file, ...(line ? { line } : {}) }],
  };
}

/** Groups package files under the nearest folder that holds a SKILL.md; files outside every skill folder are dropped. */
export function nearestSkillDir(filePath: string, skillDirs: ReadonlySet<string>): string | null {
  let dir = filePath.includes('/') ? filePath.slice(0, filePath.lastIndexOf('/')) : '';
  for (;;) {
    if (skillDirs.has(dir)) return dir;
    if (dir === '') return null;
    dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  }
}

export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export function inSkill(dir: string, filePath: string): string {
  return dir === '' ? filePath : filePath.slice(dir.length + 1);
}
