// Types of the skill library back end: validation issues, parsed skills, package files, import requests and reports.
import type { ImportListCounts } from '../../shared/api';
import type { JobProgress } from '../../shared/jobs';
import type { Db } from '../store/db';

export type IssueSeverity = 'error' | 'warning';

/** One finding about a skill. `rule` is a stable id (e.g. `name-format`) that hosts and tests can match on. */
export interface ValidationIssue {
  severity: IssueSeverity;
  rule: string;
  message: string;
  /** Path of the file the issue is in, relative to the source (or the source path itself for single files). */
  file: string;
  /** 1-based line in that file, where known. */
  line?: number;
}

export type PackageFileKind = 'script' | 'reference' | 'asset' | 'other';

export interface PackageFile {
  /** Relative to the skill folder, with forward slashes. */
  path: string;
  kind: PackageFileKind;
  size: number;
  sha256: string;
  isText: boolean;
  /** Text of references/ files (capped) so keyword search can see it; null for everything else. */
  textContent: string | null;
}

/** A skill that passed validation and can be written to the library. */
export interface ParsedSkill {
  name: string;
  description: string;
  frontMatter: Record<string, unknown>;
  body: string;
  fullText: string;
  relPath: string;
  files: PackageFile[];
  contentHash: string;
  warnings: ValidationIssue[];
  /** Digest of the raw source text this skill was built from (a JSONL line): equal on re-import means unchanged. */
  sourceDigest?: string;
}

export type SourceKind = 'folder' | 'zip' | 'file' | 'jsonl';
export type ConflictResolution = 'keep-both' | 'replace' | 'skip';
export type OnConflict = 'record' | ConflictResolution;

export interface ImportRequest {
  /** Detected from the path when missing. */
  kind?: SourceKind;
  path: string;
  label?: string;
  /** What to do when a skill has the name of another one with different content. Default 'record'. */
  onConflict?: OnConflict;
}

export interface ImportLogger {
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
}

export interface LibraryDeps {
  db: Db;
  clock: () => Date;
  logger: ImportLogger;
}

export interface ImportJob {
  signal: AbortSignal;
  report(progress: JobProgress): void;
  /** Stored with the report when given. */
  id?: string;
}

export interface SkillRef {
  name: string;
  relPath: string;
}

export interface ImportReport {
  sourceId: number;
  sourceUri: string;
  kind: SourceKind;
  /** Packages found in the source (imported, unchanged, rejected, duplicates and conflicts together). */
  total: number;
  added: SkillRef[];
  updated: SkillRef[];
  unchanged: SkillRef[];
  /** Skills the source no longer has; those whose states a curator edited or verified come first and say so. */
  removed: (SkillRef & { reviewStatus?: 'edited' | 'verified' })[];
  /** Identical content already in the library at another place: not written again. */
  duplicates: (SkillRef & { existingSkillId: number })[];
  rejected: { relPath: string; file: string; issues: ValidationIssue[] }[];
  warnings: (SkillRef & { issues: ValidationIssue[] })[];
  conflicts: (SkillRef & { id: number; existingSkillId: number; resolution?: ConflictResolution })[];
  cancelled: boolean;
  /** How many lines each list has, where a list holds only its first `shownAtMost` (see the API's ImportReport). */
  counts?: ImportListCounts;
  shownAtMost?: number;
  rejectedForFolderName?: number;
  rejectedForNameFormat?: number;
  /** Of those rejected for the name's format, the ones whose name differs from their folder too. */
  rejectedForNameAndFolder?: number;
  /** Removed skills whose states a curator edited or verified (of all removed, not only those listed). */
  removedReviewed?: number;
  /** The removed skills went to the trash as one delete, which `undo` restores with their states and history. */
  removedToTrash?: boolean;
  /** Older deletes that this one pushed out of the trash: they can no longer be restored. */
  trashEvicted?: { label: string; deletedAt: string }[];
  /** false: the import added nothing, so its new source was removed, and its report with it (this is all of it). */
  stored?: false;
  /**
   * The source was in the library before this import, which updated it (a re-import: added, updated and removed are
   * against its last import): its label and when it was last imported. Absent when the import made the source.
   */
  reimportOf?: { label: string; lastImportedAt: string | null };
}

/** Size caps that bound what an import reads, and validation policy; every one is a setting with this default. */
export interface ImportSettings {
  /** The spec says a name must equal its folder (an error); a curator may choose to keep such skills with a warning. */
  nameFolderMismatch: IssueSeverity;
  /** Capitals, spaces or stray hyphens in a name break the spec (an error); a curator may keep them with a warning. */
  nameFormat: IssueSeverity;
  skillMdMaxBytes: number;
  packageFileMaxBytes: number;
  referenceTextMaxBytes: number;
  zipTotalMaxBytes: number;
  /** The most a Git fetch downloads (the pack is held in memory while it is read). */
  gitDownloadMaxBytes: number;
  zipMaxRatio: number;
  zipMaxEntries: number;
  jsonlLineMaxBytes: number;
  /** Folders a folder walk reads at most; links that reach one folder many ways count each way. */
  folderMaxVisits: number;
  /** A file with a hard link outside the source: an error rejects its skill, a warning imports it with a warning. */
  hardlinkOutsideSource: IssueSeverity;
}

export const defaultImportSettings: ImportSettings = {
  nameFolderMismatch: 'error',
  nameFormat: 'error',
  skillMdMaxBytes: 1024 * 1024,
  packageFileMaxBytes: 64 * 1024 * 1024,
  referenceTextMaxBytes: 256 * 1024,
  zipTotalMaxBytes: 1024 * 1024 * 1024,
  gitDownloadMaxBytes: 1024 * 1024 * 1024,
  zipMaxRatio: 200,
  zipMaxEntries: 100_000,
  jsonlLineMaxBytes: 2 * 1024 * 1024,
  folderMaxVisits: 20_000,
  hardlinkOutsideSource: 'error',
};
