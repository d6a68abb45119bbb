// Ordered, immutable migrations. Id ranges by area keep parallel work from colliding:
// 1-9 library, 10-19 models, 20-29 llm/states, 30-39 selection/eval, 40-49 app settings, 70-79 agent usage and audit.
import type { Db } from '../db';
import { m001Library } from './001-library';
import { m002Jobs } from './002-jobs';
import { m003JobOwner } from './003-job-owner';
import { m004ScaleColumns } from './004-scale-columns';
import { m005BodyOnce } from './005-body-once';
import { m006TextIndexOnce } from './006-text-index-once';
import { m007ImportReportEntries } from './007-import-report-entries';
import { m008ConflictSummaries } from './008-conflict-summaries';
import { m009OpenConflicts } from './009-open-conflicts';
import { m010VectorIndex } from './010-vector-index';
import { m011ScoreCache } from './011-score-cache';
import { m012SkillSideVectors } from './012-skill-side-vectors';
import { m020States } from './020-states';
import { m021ParseAttempts } from './021-parse-attempts';
import { m022BulkChanges } from './022-bulk-changes';
import { m030SelectionRuns } from './030-selection-runs';
import { m031Evaluation } from './031-evaluation';
import { m032EngineThroughput } from './032-engine-throughput';
import { m033EvalLibrary } from './033-eval-library';
import { m034TextPacked } from './034-text-packed';
import { m038LabelAvoid } from './038-label-avoid';
import { m040SkillTags } from './040-skill-tags';
import { m041LexicalStats } from './041-lexical-stats';
import { m050Profiles } from './050-profiles';
import { m055SourcesSync } from './055-sources-sync';
import { m060RunVia } from './060-run-via';
import { m061RunTracesPacked } from './061-run-traces-packed';
import { m062TrashReviewed } from './062-trash-reviewed';
import { m017ScoreCacheWeights } from './017-score-cache-weights';
import { m070McpUsage } from './070-mcp-usage';
import { m071Audit } from './071-audit';
import { m075AuditWorst } from './075-audit-worst';
import { m076AuditReviews } from './076-audit-reviews';

export interface Migration {
  id: number;
  name: string;
  sql: string;
  /** What depends on the library's contents, run after sql in the same transaction (by openDb's connection). */
  afterSql?: (db: Db) => void;
}

export const migrations: Migration[] = [
  m001Library,
  m002Jobs,
  m003JobOwner,
  m004ScaleColumns,
  m005BodyOnce,
  m006TextIndexOnce,
  m007ImportReportEntries,
  m008ConflictSummaries,
  m009OpenConflicts,
  m010VectorIndex,
  m011ScoreCache,
  m012SkillSideVectors,
  m020States,
  m021ParseAttempts,
  m022BulkChanges,
  m030SelectionRuns,
  m031Evaluation,
  m032EngineThroughput,
  m033EvalLibrary,
  m034TextPacked,
  m038LabelAvoid,
  m040SkillTags,
  m041LexicalStats,
  m050Profiles,
  m055SourcesSync,
  m060RunVia,
  m017ScoreCacheWeights,
  m061RunTracesPacked,
  m062TrashReviewed,
  m070McpUsage,
  m071Audit,
  m075AuditWorst,
  m076AuditReviews,
];
