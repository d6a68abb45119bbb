// The library back end as the API sees it: import, conflicts, reading the library, keyword search.
export { importSource, type ImportOptions } from './importer';
export { resolveConflict, type ConflictOutcome } from './resolve-conflict';
export { resolveConflicts } from './resolve-conflicts';
export { removeSource } from './remove-source';
export { latestImportReport } from '../store/import-reports-repo';
export { detectSourceKind } from './sources/open-source';
export { fileTypeName } from './sources/safe-open';
export * from './types';
export {
  getConflict,
  getSkill,
  getSkillByName,
  libraryStats,
  listConflicts,
  listSkills,
  listSources,
  setEnvironmentNote,
} from '../store/library-repo';
export type {
  ConflictView,
  LibraryStats,
  ListSkillsQuery,
  SkillDetail,
  SkillFileInfo,
  SkillSummary,
  SourceSummary,
} from '../store/library-repo';
export type { SkillFilter } from '../store/library-filter';
export { reviewStatuses, type ReviewStatus } from '../store/review-status';
export { searchKeyword, snippetRuns, highlightStart, highlightEnd, keywordWeights } from '../search/keyword';
export type { KeywordHit, KeywordQuery, KeywordResult } from '../search/keyword';
