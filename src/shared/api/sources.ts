// Sources that stay in sync: Git sources, update checks with a diff per skill, folder watches, delete with undo,
// and the side-by-side diff of a name conflict.
import type { JobInfo } from '../jobs';
import type { ReviewStatus, SkillIssue, SkillRef } from './library';

export interface DiffLine {
  op: 'same' | 'add' | 'del';
  text: string;
  oldLine?: number;
  newLine?: number;
}
/** A diff with long unchanged runs folded into one gap. */
export type DiffHunkLine = DiffLine | { op: 'gap'; skipped: number };

export interface PackageFileChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
}

export interface UpdateItem {
  relPath: string;
  name: string;
  /** The library's skill at this place (changed and removed), null for an added one. */
  skillId: number | null;
  /** Review status of that skill's states; edited and verified ones are kept when the change is applied. */
  reviewStatus: ReviewStatus | null;
  /** SKILL.md, library against upstream. */
  diff: DiffHunkLine[];
  files: PackageFileChange[];
}

export interface UpdateCheck {
  sourceId: number;
  sourceLabel: string;
  checkedAt: string;
  /** The upstream commit for a Git source. */
  commit: string | null;
  added: UpdateItem[];
  changed: UpdateItem[];
  removed: UpdateItem[];
  unchanged: number;
  rejected: { relPath: string; file: string; issues: SkillIssue[] }[];
}

export interface ApplyResult {
  sourceId: number;
  added: SkillRef[];
  updated: SkillRef[];
  removed: SkillRef[];
  /** Changed skills whose edited or verified states were kept (marked "skill changed since"). */
  kept: { skillId: number; name: string; status: ReviewStatus }[];
  /** Not written: another skill has the name (see library.conflicts), or identical content is already there. */
  conflicts: { id: number; name: string; relPath: string }[];
  duplicates: { name: string; relPath: string; existingSkillId: number }[];
  /** What is still upstream and not applied. */
  remaining: number;
  commit: string | null;
}

export interface SourceSync {
  sourceId: number;
  git: {
    url: string;
    ref: string | null;
    subdir: string;
    commit: string | null;
    usesToken: boolean;
    checkedAt: string | null;
  } | null;
  watched: boolean;
  /**
   * The watch running in this process, when there is one: 'waiting' while the folder is gone (the watch comes back with
   * it), 'stopped' when it could not start again (then `watched` is false and `message` says why).
   */
  watch?: { state: 'watching' | 'waiting' | 'stopped'; message: string | null };
  /** Changes a watch saw in the folder and nobody applied yet. */
  pending: { added: number; changed: number; removed: number; detectedAt: string } | null;
}

export interface UpstreamSkillChange {
  skillId: number;
  changedAt: string;
  /** The states' review status when the change came in. */
  reviewStatus: ReviewStatus;
  diff: DiffHunkLine[];
}

export interface DeletePreview {
  skills: number;
  /** Of those, skills whose states a person edited or verified. */
  reviewed: number;
  names: string[];
  sourceLabel: string | null;
  /** Label sets whose gold names skills of this delete: their evaluations count those as misses until restored. */
  goldIn?: { set: string; skills: string[] }[];
}

export interface DeletedInfo {
  id: number;
  kind: 'skills' | 'source';
  /** What went: the skill's name, the first few names of several ("alpha, beta and 2 more"), or the source. */
  label: string;
  skillCount: number;
  /** Of those, skills whose states a person edited or verified: the trash keeps such a delete until emptied. */
  reviewedCount: number;
  deletedAt: string;
  restoredAt: string | null;
}

export interface ConflictSide {
  skillId: number | null;
  sourceLabel: string;
  relPath: string;
  description: string;
  text: string;
}

export interface ConflictDiff {
  conflictId: number;
  name: string;
  existing: ConflictSide;
  incoming: ConflictSide;
  /** The whole SKILL.md, existing against incoming, for a side-by-side view. */
  diff: DiffLine[];
}

export interface SourcesApi {
  /** Clones the repository (branch or tag, optional sub-folder) and imports it as a job whose result is the import report. */
  'sources.addGit'(req: {
    url: string;
    ref?: string;
    subdir?: string;
    label?: string;
    token?: string;
  }): Promise<JobInfo>;
  'sources.sync'(req: Record<string, never>): Promise<SourceSync[]>;
  /** Fetches (Git) or reads (folder) the source and lists what differs from the library; writes nothing to the library. */
  'sources.check'(req: { sourceId: number }): Promise<UpdateCheck>;
  /** Applies the last check's changes: all of them, or those at relPaths. */
  'sources.apply'(req: { sourceId: number; relPaths?: string[] }): Promise<ApplyResult>;
  'sources.watch'(req: { sourceId: number; watch: boolean }): Promise<SourceSync>;
  'sources.skillChange'(req: { skillId: number }): Promise<UpstreamSkillChange | null>;
  'sources.dismissChange'(req: { skillId: number }): Promise<{ dismissed: number }>;
  'sources.deletePreview'(req: { skillIds?: number[]; sourceId?: number }): Promise<DeletePreview>;
  /** Deletes to the trash; `evicted` are older deletes this one pushed out of it (they can no longer be restored). */
  'sources.delete'(req: {
    skillIds?: number[];
    sourceId?: number;
  }): Promise<DeletedInfo & { evicted: DeletedInfo[] }>;
  /** Restores the last delete (skills, files, states and their history). */
  'sources.undoDelete'(req: Record<string, never>): Promise<DeletedInfo & { restoredSkillIds: number[] }>;
  'sources.lastDeleted'(req: Record<string, never>): Promise<DeletedInfo | null>;
  /** The deletes the trash keeps, newest first: the last 20, and older ones that hold reviewed states. */
  'sources.trash'(req: Record<string, never>): Promise<DeletedInfo[]>;
  /** Restores one delete of the trash, not only the last. */
  'sources.restoreDeleted'(req: { id: number }): Promise<DeletedInfo & { restoredSkillIds: number[] }>;
  /** Deletes for good one delete of the trash (id), or every one. */
  'sources.emptyTrash'(req: { id?: number }): Promise<{ deletes: number; skills: number; reviewed: number }>;
  'sources.conflictDiff'(req: { conflictId: number }): Promise<ConflictDiff>;
}

export const sourcesMethods = [
  'sources.addGit',
  'sources.sync',
  'sources.check',
  'sources.apply',
  'sources.watch',
  'sources.skillChange',
  'sources.dismissChange',
  'sources.deletePreview',
  'sources.delete',
  'sources.undoDelete',
  'sources.lastDeleted',
  'sources.trash',
  'sources.restoreDeleted',
  'sources.emptyTrash',
  'sources.conflictDiff',
] as const;
