// LLM endpoint, parsing jobs, and the review of parsed states.
import type { JobInfo } from '../jobs';
import type { Severity } from './audit';
import type { ReviewStatus } from './library';

/**
 * A high or critical audit finding no suppression holds for, in the CONFLICT refusal of states.verify and
 * states.verifyMany (`details.auditFindings`): verifying such a skill asks first (`acknowledgeAudit: true`).
 */
export interface VerifyAuditFinding {
  skillId: number;
  name: string;
  findingId: number;
  ruleId: string;
  severity: Severity;
  /** file:line */
  where: string;
}

export interface ConnectionReport {
  ok: boolean;
  /** Plain words: what is wrong and what to do. */
  message: string;
  model?: string;
  latencyMs?: number;
}

export interface SkillStates {
  skillId: number;
  precondition: string | null;
  completion: string | null;
  status: ReviewStatus;
  model: string | null;
  promptVersion: string | null;
  rawAnswer: string | null;
  error: string | null;
  /** The skill changed since it was parsed. */
  outdated: boolean;
  updatedAt: string | null;
  /** The last parse attempt that failed since the last good parse; the states above were kept. */
  failedAttempt?: FailedParseAttempt | null;
}

/** A parse that produced no states: the answer was refused or the endpoint failed. */
export interface FailedParseAttempt {
  at: string;
  /** Why, in words. */
  error: string;
  /** The endpoint problem (e.g. 'server-error', 'timeout') when the endpoint failed; null for a refused answer. */
  problem: string | null;
  /** The model's answer as received (the API key redacted); null when no answer came. */
  rawAnswer: string | null;
  model: string | null;
  jobId: string | null;
}

export interface StateHistoryEntry {
  id: number;
  skillId: number;
  action: string;
  before: { precondition: string | null; completion: string | null; status: ReviewStatus } | null;
  after: { precondition: string | null; completion: string | null; status: ReviewStatus } | null;
  at: string;
}

export interface TaskParse {
  task: string;
  subtasks: string[];
  states: string[];
  source: 'llm' | 'manual' | 'label';
  cached: boolean;
  model?: string;
  promptVersion?: string;
  raw?: string;
}

export interface ParseEstimate {
  /** Skills the model would be asked about. */
  toSend: number;
  /** Edited or verified skills that keep their states (not sent). */
  kept: number;
  /** Skills whose current parse is reused (not sent). */
  cached: number;
  promptTokens: number;
  completionTokens: number;
  /** At the prices in Settings; 0 when they are unset. */
  cost: number;
  /** 'library': rates measured on this library's past parses; 'default': no history yet. */
  basis: 'library' | 'default';
}

/** The review statuses of a skill that has states: the ones a states file carries. */
export const statusesWithStates = ['parsed', 'edited', 'verified'] as const;
export type StatusWithStates = (typeof statusesWithStates)[number];

export interface StatesExportResult {
  /** The JSONL text, one skill a line, ordered by name. */
  content: string;
  /** The name to save it under. */
  fileName: string;
  /** Where it was written (with a path). */
  path?: string;
  /** How many skills of each status the file holds. */
  byStatus: Record<StatusWithStates, number>;
  /** How many audit suppressions (with their reasons) the file carries after the states. */
  suppressions: number;
}

export interface LlmApi {
  /** Tests the saved endpoint, or the saved one with `llm` laid over it (values not saved yet). */
  'llm.test'(req: { llm?: Record<string, unknown> }): Promise<ConnectionReport>;
  /** The models the endpoint lists at GET /models, to pick from; `message` says why the list is empty. */
  'llm.models'(req: { llm?: Record<string, unknown> }): Promise<{ models: string[]; message?: string }>;
  /** Stores the API key for the endpoint (never returned, never logged). */
  'llm.setApiKey'(req: { apiKey: string | null }): Promise<{ stored: boolean }>;
  /** What `parse.skills` with the same request would send, and its estimated tokens and cost; nothing is sent. */
  'parse.estimate'(req: {
    only?: 'unparsed' | 'failed' | 'all';
    ids?: number[];
    force?: boolean;
    replace?: boolean;
  }): Promise<ParseEstimate>;
  'parse.skills'(req: {
    only?: 'unparsed' | 'failed' | 'all';
    ids?: number[];
    /** Send even when a cached parse exists; never replaces edited or verified states by itself. */
    force?: boolean;
    /** Replace edited/verified states of the skills named in `ids` (the old values go to history). */
    replace?: boolean;
    /** The Library's bulk Re-parse of `ids`: recorded as a bulk change, which `bulk.undo` takes back once it ends. */
    bulk?: boolean;
  }): Promise<JobInfo>;
  'parse.task'(req: {
    task: string;
    environmentNote?: string;
    sourceId?: number;
    force?: boolean;
  }): Promise<TaskParse>;
  'states.get'(req: { skillId: number }): Promise<SkillStates>;
  'states.edit'(req: {
    skillId: number;
    precondition?: string | null;
    completion?: string | null;
  }): Promise<SkillStates>;
  /** Refused (CONFLICT, `details.auditFindings`) for a skill with unsuppressed high or critical audit findings, unless `acknowledgeAudit`. */
  'states.verify'(req: { skillId: number; acknowledgeAudit?: boolean }): Promise<SkillStates>;
  'states.history'(req: { skillId: number }): Promise<StateHistoryEntry[]>;
  'states.revert'(req: { skillId: number; historyId: number }): Promise<SkillStates>;
  /**
   * Reviewed states from a JSONL file ({name, precondition, completion} per line); a line with "status": "verified"
   * is marked verified (verify: every line). Human edits here are kept unless overwrite; skills whose states already
   * are what their line would write are `unchanged` (nothing written).
   */
  'states.import'(req: { path: string; verify?: boolean; overwrite?: boolean }): Promise<{
    applied: number;
    unchanged: string[];
    keptHumanEdits: string[];
    unknownSkills: string[];
    errors: { line: number; message: string }[];
    /** The file's audit suppressions: added here, already here, or of a skill this library lacks (in unknownSkills). */
    suppressions: { applied: number; unchanged: number };
  }>;
  /**
   * The states as the JSONL file states.import reads, plus each line's "status"; `statuses` picks the skills (default:
   * every skill with states). With a path it is written there (an existing file only with overwrite); with a path and
   * no skill of those statuses, nothing is written and the error (NOT_FOUND) says which statuses the library has.
   */
  'states.export'(req: {
    statuses?: StatusWithStates[];
    path?: string;
    overwrite?: boolean;
  }): Promise<StatesExportResult>;
  /** The next skill to review after `afterId` with one of the statuses (default parsed|failed|edited). */
  'states.next'(req: { afterId?: number; statuses?: ReviewStatus[] }): Promise<{ skillId: number | null }>;
}

export const llmMethods = [
  'llm.test',
  'llm.models',
  'llm.setApiKey',
  'parse.skills',
  'parse.estimate',
  'parse.task',
  'states.get',
  'states.edit',
  'states.verify',
  'states.history',
  'states.revert',
  'states.import',
  'states.export',
  'states.next',
] as const;
