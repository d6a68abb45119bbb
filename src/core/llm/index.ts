// The LLM layer's public surface: endpoint settings and client, test connection, prompts, parsers, parsing jobs.
export { createLlmApi, PARSE_SKILLS_JOB } from './llm-api';
export { createLlmClient, type LlmClientDeps } from './client';
export { testConnection, type ConnectionReport } from './test-connection';
export {
  llmEndpointSettingsSchema,
  parseLlmSettings,
  estimateCost,
  type ApiKeyProvider,
  type LlmEndpointSettings,
  type LlmEndpointSettingsInput,
} from './settings';
export type { ChatMessage, Clock, LlmClient, LlmCompletion, TokenUsage } from './ports';
export type { EndpointProblem } from './endpoint-errors';
export {
  SKILL_PARSE_PROMPT_VERSION,
  TASK_PARSE_PROMPT_VERSION,
  buildSkillParseMessages,
  buildTaskParseMessages,
} from './prompts';
export {
  parseSkillAnswer,
  parseTaskAnswer,
  validateTaskDecomposition,
  formatTaskDecomposition,
  type ParsedSkillStates,
  type TaskDecomposition,
} from './answer-parsers';
export {
  parseSkills,
  type ParseSkillsDeps,
  type ParseSkillsParams,
  type ParseSkillsResult,
  type ParseJob,
} from './parse-skills';
export {
  parseTask,
  saveManualTaskParse,
  type ParseTaskDeps,
  type ParseTaskRequest,
  type ManualTaskParseRequest,
} from './parse-task';
