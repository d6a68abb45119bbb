// Evaluation: label sets, runs that compare variants, and their reports.
export { parseLabelJsonl, validateLabelItem, toJsonl, type LabelItem } from './label-format';
export { parseLabelText, type LabelText } from './label-text';
export {
  parseSkillCreatorJson,
  toSkillCreatorEvals,
  toTriggerQueries,
  type SkillCreatorFile,
} from './skill-creator-format';
export { exportLabels, type LabelExport } from './label-export';
export { triggerFigures, skillTriggerFigures, type TriggerFigures } from './trigger-metrics';
export { triggerChanges } from './trigger-changes';
export {
  importLabelSet,
  importLabelFile,
  listLabelSets,
  getLabelSetInfo,
  findLabelSet,
  getLabelItems,
  saveLabelItem,
  deleteLabelItem,
  type LabelSetInfo,
} from './label-store';
export { taskMetrics, meanMetrics, type TaskMetrics, type MeanMetrics } from './metrics';
export { runEval, type EvalDeps, type EvalJob, type EvalRequest } from './run-eval';
export {
  getEvalReport,
  reportToJson,
  reportToMarkdown,
  reportToCsv,
  type EvalReport,
  type VariantSummary,
  type EvalTaskRow,
  type TaskDifference,
} from './eval-report';
export { listEvalRuns, getEvalRun } from './eval-store';
export {
  recordRunLibrary,
  getRunLibrary,
  currentSkillSnapshots,
  type EvalLibraryInfo,
} from './library-snapshot';
export { compareRuns, previousRunId, lastRunOfSet, type EvalComparison } from './compare-runs';
export { confusability, type ConfusabilityReport, type ConfusablePair } from './confusability';
export { comparisonToMarkdown } from './comparison-report';
