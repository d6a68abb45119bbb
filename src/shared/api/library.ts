// Library: import, browse, search, conflicts.
import type { JobInfo } from '../jobs';
import type { Severity } from './audit';

export type SourceKind = 'folder' | 'zip' | 'file' | 'jsonl';
export type ReviewStatus = 'unparsed' | 'parsed' | 'failed' | 'edited' | 'verified';
export type ConflictResolution = 'keep-both' | 'replace' | 'skip';
export type SearchMode = 'keyword' | 'dense' | 'hybrid';

export interface SkillIssue {
  severity: 'error' | 'warning';
  rule: string;
  message: string;
  file: string;
  line?: number;
}

export interface SkillFilters {
  sourceId?: number;
  status?: ReviewStatus;
  hasErrors?: boolean;
  hasWarnings?: boolean;
  /** Only these skills (a profile, the set an MCP server may serve). */
  skillIds?: readonly number[];
  /** Not these skills (those the audit gate refuses, for an MCP server). */
  excludeSkillIds?: readonly number[];
  /** Skills that carry this tag (see tags.list). */
  tag?: string;
  /** Skills of exactly this name (a kept-both conflict leaves two). */
  name?: string;
  /** Skills verified at their current content: not changed in their source since a curator verified them. */
  verifiedAsIs?: boolean;
  /** Skills with an unsuppressed audit finding at or above this severity. */
  auditAtLeast?: Severity;
  /** Skills audited with nothing unsuppressed above info (clean), or never audited. */
  auditState?: 'clean' | 'unaudited';
}

export interface SkillSummary {
  id: number;
  name: string;
  description: string;
  sourceId: number;
  relPath: string;
  status: ReviewStatus;
  warningCount: number;
  updatedAt: string;
  /** The worst audit finding no suppression holds for; null when none or never audited. */
  auditWorst?: Severity | null;
  /** When the skill was last audited; null: never. */
  auditedAt?: string | null;
}

export interface SkillFile {
  path: string;
  kind: 'script' | 'reference' | 'asset' | 'other';
  size: number;
  sha256: string;
  isText: boolean;
}

export interface SkillDetail extends SkillSummary {
  frontMatter: Record<string, unknown>;
  body: string;
  fullText: string;
  contentHash: string;
  warnings: SkillIssue[];
  files: SkillFile[];
  sourceLabel: string;
  createdAt: string;
}

/** One file of a skill's package as text (untrusted: shown as plain text). */
export interface SkillFileText {
  skillId: number;
  path: string;
  /** null when the file cannot be read as imported, or is not text. */
  text: string | null;
  /** Why there is no text. */
  unavailable?: string;
}

export interface SourceInfo {
  id: number;
  kind: SourceKind;
  uri: string;
  label: string;
  environmentNote: string | null;
  skillCount: number;
  lastImportedAt: string | null;
}

export interface SkillRef {
  name: string;
  relPath: string;
}

export interface ImportReport {
  sourceId: number;
  added: SkillRef[];
  updated: SkillRef[];
  unchanged: SkillRef[];
  /** Skills the source no longer has; those whose states a curator edited or verified come first and say so. */
  removed: (SkillRef & { reviewStatus?: 'edited' | 'verified' })[];
  rejected: { relPath: string; file: string; issues: SkillIssue[] }[];
  warnings: { name: string; relPath: string; issues: SkillIssue[] }[];
  /** `resolution`: how the conflict was resolved since, in a report read back from the library. */
  conflicts: {
    id: number;
    name: string;
    relPath: string;
    existingSkillId: number;
    resolution?: ConflictResolution;
  }[];
  /** Identical content already in the library elsewhere (existingSkillId): not written again. */
  duplicates?: { name: string; relPath: string; existingSkillId: number }[];
  cancelled: boolean;
  /**
   * How many lines each list has. A job's result, or a report asked for with `shown`, lists at most `shownAtMost` lines
   * of each (the first ones); the counts are always whole.
   */
  counts?: ImportListCounts;
  shownAtMost?: number;
  /** Rejected only because "name" differs from the folder (of all rejected, not only those listed). */
  rejectedForFolderName?: number;
  /** Rejected only for name rules the settings relax, the name's format among them (capitals, spaces). */
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
  /** The audit of the skills this import added or changed: findings per severity, the first 50 flagged high or critical. */
  audit?: {
    audited: number;
    findings: Record<'info' | 'low' | 'medium' | 'high' | 'critical', number>;
    flagged: { skillId: number; name: string; worst: 'high' | 'critical' }[];
    flaggedCount: number;
  };
}

export const importLists = [
  'added',
  'updated',
  'unchanged',
  'removed',
  'duplicates',
  'rejected',
  'warnings',
  'conflicts',
] as const;
export type ImportListName = (typeof importLists)[number];
export type ImportListCounts = Record<ImportListName, number>;

export interface ConflictInfo {
  id: number;
  name: string;
  existingSkillId: number;
  sourceId: number;
  relPath: string;
  incomingDescription: string;
  createdAt: string;
  resolvedAt: string | null;
  resolution: ConflictResolution | null;
}

/** Which open conflicts a bulk resolution answers: listed ids, or all open ones (optionally of one incoming source). */
export interface ResolveConflictsRequest {
  ids?: number[];
  all?: 'open';
  /** With `all`: only conflicts found importing this source. */
  sourceId?: number;
  resolution: ConflictResolution;
  /** Says what each conflict would do and changes nothing. */
  dryRun?: boolean;
  /**
   * A resolution that would change a skill whose states a person edited or verified is refused for that conflict
   * (reported, left open) unless this is true; the skill then shows "skill changed since" with the diff.
   */
  overwriteEdits?: boolean;
}

/** A skill whose states a person edited or verified, which a resolution changes (replace) or removes. */
export interface EditedSkillTouched {
  skillId: number;
  name: string;
  status: 'edited' | 'verified';
  change: 'content-replaced' | 'removed';
}

export interface ConflictResolutionItem {
  id: number;
  name: string;
  relPath: string;
  /** resolved: done now; planned: what a dry run would do; failed: left open (or was not open), see error. */
  outcome: 'resolved' | 'planned' | 'failed';
  /** The skill that holds the incoming content (null after skip, failure or dry run). */
  skillId: number | null;
  editedSkills: EditedSkillTouched[];
  error?: { code: string; message: string };
}

export interface ResolveConflictsResult {
  resolution: ConflictResolution;
  dryRun: boolean;
  resolved: number;
  failed: number;
  /** Curator-edited skills changed (or, in a dry run, that would be changed) by this resolution. */
  editedSkills: number;
  items: ConflictResolutionItem[];
}

export interface SearchHit {
  skill: SkillSummary;
  score: number;
  /** Highlighted excerpt: matched ranges are wrapped in \u0002 ... \u0003 (never HTML). */
  snippet: string;
  ranks: Partial<Record<'keyword' | 'dense', number>>;
}

export interface SearchResponse {
  mode: SearchMode;
  engine: string;
  hits: SearchHit[];
  /** Something the user should know about these results, e.g. a vector index out of date. */
  notice?: string;
}

export interface LibraryStats {
  skills: number;
  sources: number;
  withWarnings: number;
  openConflicts: number;
  byStatus: Record<ReviewStatus, number>;
  dbBytes: number;
}

export interface LibraryApi {
  'library.import'(req: {
    path: string;
    kind?: SourceKind;
    label?: string;
    onConflict?: 'record' | ConflictResolution;
  }): Promise<JobInfo>;
  'library.list'(
    req: SkillFilters & { limit?: number; offset?: number },
  ): Promise<{ total: number; items: SkillSummary[] }>;
  /** By id, or by name (the newest skill of that name). */
  'library.get'(req: { id?: number; name?: string }): Promise<SkillDetail>;
  /** The text of one of the skill's files (SKILL.md included), as it was imported. */
  'library.file'(req: { skillId: number; path: string }): Promise<SkillFileText>;
  'library.search'(req: {
    query: string;
    mode?: SearchMode;
    filters?: SkillFilters;
    limit?: number;
  }): Promise<SearchResponse>;
  'library.stats'(req: Record<string, never>): Promise<LibraryStats>;
  'library.sources'(req: Record<string, never>): Promise<SourceInfo[]>;
  'library.setEnvironmentNote'(req: { sourceId: number; note: string | null }): Promise<SourceInfo>;
  /** The latest import's report; with `shown`, each list holds at most its first `shown` lines (counts stay whole). */
  'library.importReport'(req: { sourceId: number; shown?: number }): Promise<ImportReport | null>;
  'library.conflicts'(req: { includeResolved?: boolean }): Promise<ConflictInfo[]>;
  /**
   * The conflict as resolved, and the skill that now holds the incoming content (null after skip). A resolution that
   * would change a skill whose states a person edited or verified is refused (CONFLICT, `details.editedSkills`)
   * unless `overwriteEdits`.
   */
  'library.resolveConflict'(req: {
    id: number;
    resolution: ConflictResolution;
    overwriteEdits?: boolean;
  }): Promise<ConflictInfo & { skillId: number | null }>;
  /** Many conflicts at once, each in its own transaction: one that fails stays open and is reported. */
  'library.resolveConflicts'(req: ResolveConflictsRequest): Promise<ResolveConflictsResult>;
}

export const libraryMethods = [
  'library.import',
  'library.list',
  'library.get',
  'library.file',
  'library.search',
  'library.stats',
  'library.sources',
  'library.setEnvironmentNote',
  'library.importReport',
  'library.conflicts',
  'library.resolveConflict',
  'library.resolveConflicts',
] as const;
