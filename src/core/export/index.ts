// Export of skill packages (an answer or any set of skills).
export {
  exportSkills,
  safeFolderName,
  safeRelativePath,
  type ExportFormat,
  type ExportRequest,
  type ExportResult,
} from './export-skills';
export type { MissingFile } from './package-reader';
