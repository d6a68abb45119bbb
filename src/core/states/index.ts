// Stored states: skill states with review status and history, and task parses (LLM-cached or typed by hand).
export {
  getStates,
  editStates,
  verifyStates,
  stateHistory,
  revertStates,
  nextForReview,
  recordParse,
  findCachedParse,
  protectedStatuses,
  type StatesEdit,
  type StatesSnapshot,
  type ParseRecord,
  type HistoryAction,
} from './skill-states';
export {
  getTaskParse,
  findTaskParse,
  deleteManualTaskParse,
  storeTaskParse,
  taskHash,
  normaliseTask,
} from './task-parses';
export {
  recordFailedAttempt,
  clearFailedAttempt,
  getFailedAttempt,
  type FailedAttemptRecord,
} from './parse-attempts';
