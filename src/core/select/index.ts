// The selection engine's public surface (METHOD.md): pure selection and replay, the trace types, and the edges that
// connect it to the library file, the recall and a CrossEncoder.
export * from './trace-types';
export { selectSkills, type SelectOptions } from './select';
export { replaySelection, recordedScores, type ReplayOptions } from './replay';
export { parseTraceJson } from './trace-schema';
export { instructions, instructionVersions, type Instruction } from './instructions';
export { skillDocument, recallText } from './documents';
export { sigmoid, logSigmoid, pairKey, type ScoreProvider, type ScoreValue, type ScoreMemo } from './scores';
export { crossEncoderScoreProvider, type CrossEncoderProviderOptions } from './score-provider';
export {
  recallCandidates,
  recallAtK,
  type RecallFn,
  type RecallHit,
  type SkillForSelection,
  type SkillLoader,
} from './recall';
export { loadSkillsForSelection, librarySize } from './skill-source';
export { saveRun, getRun, listRuns, type StoredRun, type RunOrigin } from './runs-store';
export {
  runSelection,
  replayRun,
  type SelectionDeps,
  type SelectionRequest,
  type SelectionOutcome,
} from './run-selection';
export { renderTrace } from './render-trace';
export { LLM_SELECTOR_PROMPT_VERSION, selectorPrompt, parseSelectorAnswer } from './llm-selector';
export { parseEditArg, editsFromApi } from './edits';
export { explainSelection } from './explain';
