// The read side of the library: skill lists and details, sources, conflicts and figures for the whole file.
import type { LibraryStats as ApiLibraryStats } from '../../shared/api/library';
import { statSync } from 'node:fs';
import { CuratorError } from '../../shared/errors';
import type { PackageFileKind, SourceKind, ValidationIssue } from '../skills/types';
import { findConflict, listConflictSummaries, type ConflictRow } from './conflicts-repo';
import type { Db } from './db';
import type { Severity } from '../../shared/api/audit';
import { auditColumnsSql } from './audit-sql';
import { filterSql, pageOf, type SkillFilter } from './library-filter';
import { reviewStatusSql, reviewStatuses, type ReviewStatus } from './review-status';
import { latestImportCounts, type ImportCounts } from './import-reports-repo';
import { allSources, findSource, setSourceNote, type SourceRow } from './sources-repo';
import { stmt } from './statements';

export interface SkillSummary {
  id: number;
  name: string;
  description: string;
  sourceId: number;
  relPath: string;
  contentHash: string;
  status: ReviewStatus;
  warningCount: number;
  fileCount: number;
  updatedAt: string;
  /** The worst audit finding no suppression holds for; null when none (or never audited). */
  auditWorst: Severity | null;
  /** When the skill was last audited; null: never. */
  auditedAt: string | null;
}

export interface SkillFileInfo {
  path: string;
  kind: PackageFileKind;
  size: number;
  sha256: string;
  isText: boolean;
  /** Text kept for search (references only, capped). */
  textContent: string | null;
}

export interface SkillDetail extends SkillSummary {
  frontMatter: Record<string, unknown>;
  body: string;
  fullText: string;
  warnings: ValidationIssue[];
  files: SkillFileInfo[];
  source: SourceRow;
  sourceLabel: string;
  createdAt: string;
}

export interface ListSkillsQuery extends SkillFilter {
  limit?: number;
  offset?: number;
}

/** The columns of a SkillSummary, for a query over `skills s`. */
export function summaryColumns(db: Db): string {
  return `s.id, s.name, s.description, s.source_id AS sourceId, s.rel_path AS relPath, s.content_hash AS contentHash,
    ${reviewStatusSql(db, 's')} AS status, s.warning_count AS warningCount,
    (SELECT COUNT(*) FROM skill_files f WHERE f.skill_id = s.id) AS fileCount, s.updated_at AS updatedAt,
    ${auditColumnsSql(db, 's')}`;
}

export function listSkills(db: Db, query: ListSkillsQuery = {}): { total: number; items: SkillSummary[] } {
  const { limit, offset } = pageOf(query.limit, query.offset);
  const { where, params } = filterSql(db, 's', query);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM skills s ${clause}`).get(...params) as { n: number })
    .n;
  const items = db
    .prepare(`SELECT ${summaryColumns(db)} FROM skills s ${clause} ORDER BY s.name, s.id LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as SkillSummary[];
  return { total, items };
}

export function getSkill(db: Db, id: number): SkillDetail {
  const row = db
    .prepare(
      `SELECT ${summaryColumns(db)}, s.front_matter AS frontMatter, s.body, s.full_text AS fullText, s.warnings, s.created_at AS createdAt
      FROM skills s WHERE s.id = ?`,
    )
    .get(id) as
    | (Omit<SkillDetail, 'frontMatter' | 'warnings' | 'files' | 'source'> & {
        frontMatter: string;
        warnings: string;
      })
    | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No skill ${id}`);
  const files = (
    db
      .prepare(
        'SELECT path, kind, size, sha256, is_text AS isText, text_content AS textContent FROM skill_files WHERE skill_id = ? ORDER BY path',
      )
      .all(id) as (Omit<SkillFileInfo, 'isText'> & { isText: number })[]
  ).map((f) => ({ ...f, isText: f.isText === 1 }));
  const source = findSource(db, row.sourceId)!;
  return {
    ...row,
    frontMatter: JSON.parse(row.frontMatter) as Record<string, unknown>,
    warnings: JSON.parse(row.warnings) as ValidationIssue[],
    files,
    source,
    sourceLabel: source.label,
  };
}

/** The newest skill with this name (names can repeat after keep-both). */
export function getSkillByName(db: Db, name: string): SkillDetail {
  const row = db
    .prepare('SELECT id FROM skills WHERE name = ? ORDER BY updated_at DESC, id DESC LIMIT 1')
    .get(name) as { id: number } | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No skill named "${name}"`);
  return getSkill(db, row.id);
}

export interface SourceSummary extends SourceRow {
  skillCount: number;
  warningCount: number;
  pendingConflicts: number;
  /** Counts from the latest import of this source. */
  lastImport: ImportCounts | null;
}

/** Sets or clears a source's environment note and returns the source. */
export function setEnvironmentNote(db: Db, sourceId: number, note: string | null): SourceSummary {
  if (!setSourceNote(db, sourceId, note === null || note.trim() === '' ? null : note)) {
    throw new CuratorError('NOT_FOUND', `No source ${sourceId}`);
  }
  return listSources(db).find((s) => s.id === sourceId)!;
}

export function listSources(db: Db): SourceSummary[] {
  // Both answered from indexes on small columns (skills_source_warnings, import_conflicts_place).
  const counts = stmt(
    db,
    'SELECT COUNT(*) AS skills, COALESCE(SUM(warning_count > 0), 0) AS warned FROM skills WHERE source_id = ?',
  );
  const pending = stmt(
    db,
    'SELECT COUNT(*) AS n FROM import_conflicts WHERE source_id = ? AND resolved_at IS NULL',
  );
  return allSources(db).map((s) => {
    const c = counts.get(s.id) as { skills: number; warned: number };
    const r = latestImportCounts(db, s.id);
    return {
      ...s,
      skillCount: c.skills,
      warningCount: c.warned,
      pendingConflicts: (pending.get(s.id) as { n: number }).n,
      lastImport: r ?? null,
    };
  });
}

/** The contract's stats plus the file count and a row per source. */
export interface LibraryStats extends ApiLibraryStats {
  files: number;
  perSource: {
    id: number;
    label: string;
    kind: SourceKind;
    uri: string;
    skills: number;
    warnings: number;
    openConflicts: number;
  }[];
}

export function libraryStats(db: Db): LibraryStats {
  const one = (sql: string) => (stmt(db, sql).get() as { n: number }).n;
  const perSource = listSources(db).map((s) => ({
    id: s.id,
    label: s.label,
    kind: s.kind,
    uri: s.uri,
    skills: s.skillCount,
    warnings: s.warningCount,
    openConflicts: s.pendingConflicts,
  }));
  const byStatus = Object.fromEntries(reviewStatuses.map((st) => [st, 0])) as Record<ReviewStatus, number>;
  const skills = one('SELECT COUNT(*) AS n FROM skills');
  for (const { status, n } of statusCounts(db)) byStatus[status] = n;
  // Skills without a states row are unparsed.
  byStatus.unparsed += skills - Object.values(byStatus).reduce((a, b) => a + b, 0);
  return {
    skills,
    sources: perSource.length,
    withWarnings: one('SELECT COUNT(*) AS n FROM skills WHERE warning_count > 0'),
    openConflicts: one('SELECT COUNT(*) AS n FROM import_conflicts WHERE resolved_at IS NULL'),
    byStatus,
    dbBytes: fileBytes(db.name) + fileBytes(`${db.name}-wal`),
    files: one('SELECT COUNT(*) AS n FROM skill_files'),
    perSource,
  };
}

/** Skills per review status, from the states table's status index (a skill with no row is not counted here). */
function statusCounts(db: Db): { status: ReviewStatus; n: number }[] {
  if (reviewStatusSql(db, 's') === "'unparsed'") return [];
  return stmt(db, 'SELECT status, COUNT(*) AS n FROM skill_states GROUP BY status').all() as {
    status: ReviewStatus;
    n: number;
  }[];
}

function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export interface ConflictView {
  id: number;
  name: string;
  existingSkillId: number;
  incomingDescription: string;
  sourceId: number;
  relPath: string;
  createdAt: string;
  resolution: 'keep-both' | 'replace' | 'skip' | null;
  resolvedAt: string | null;
  existing: {
    id: number;
    name: string;
    description: string;
    sourceId: number;
    relPath: string;
    contentHash: string;
  } | null;
  incoming: {
    name: string;
    description: string;
    contentHash: string;
    body: string;
    fileCount: number;
    warnings: ValidationIssue[];
  };
}

/** A conflict as listed: the incoming skill without its body (548 bodies were 6.8 MB); getConflict has it whole. */
export type ConflictListed = Omit<ConflictView, 'incoming'> & {
  incoming: Omit<ConflictView['incoming'], 'body'>;
};

export function listConflicts(db: Db, opts: { pendingOnly?: boolean } = {}): ConflictListed[] {
  return listConflictSummaries(db, { pendingOnly: opts.pendingOnly ?? true }).map((c) => ({
    id: c.id,
    name: c.name,
    existingSkillId: c.existingSkillId,
    incomingDescription: c.incomingDescription,
    sourceId: c.sourceId,
    relPath: c.relPath,
    createdAt: c.createdAt,
    resolution: c.resolution,
    resolvedAt: c.resolvedAt,
    existing: c.existing === null ? null : (JSON.parse(c.existing) as ConflictView['existing']),
    incoming: {
      name: c.name,
      description: c.incomingDescription,
      contentHash: c.incomingHash,
      fileCount: c.incomingFileCount,
      warnings: JSON.parse(c.incomingWarnings) as ValidationIssue[],
    },
  }));
}

export function getConflict(db: Db, id: number): ConflictView {
  const row = findConflict(db, id);
  if (!row) throw new CuratorError('NOT_FOUND', `No import conflict ${id}`);
  return conflictView(db, row);
}

function conflictView(db: Db, c: ConflictRow): ConflictView {
  const existing = db
    .prepare(
      'SELECT id, name, description, source_id AS sourceId, rel_path AS relPath, content_hash AS contentHash FROM skills WHERE id = ?',
    )
    .get(c.existingSkillId) as ConflictView['existing'] | undefined;
  return {
    id: c.id,
    name: c.name,
    existingSkillId: c.existingSkillId,
    incomingDescription: c.incoming.description,
    sourceId: c.sourceId,
    relPath: c.relPath,
    createdAt: c.createdAt,
    resolution: c.resolution,
    resolvedAt: c.resolvedAt,
    existing: existing ?? null,
    incoming: {
      name: c.incoming.name,
      description: c.incoming.description,
      contentHash: c.incoming.contentHash,
      body: c.incoming.body,
      fileCount: c.incoming.files.length,
      warnings: c.incoming.warnings,
    },
  };
}
