// Selection lab: run a variant on a task, replay with edits, export an answer.
import type { SelectionEstimate, SelectionPreset } from '../presets';
import type { SelectionTrace, TraceEdit, Variant } from '../trace';
import type { SelectionWhy } from '../why';
import type { TaskParse } from './llm';

export { variants, type Variant } from '../trace';
export type * from '../why';
export {
  selectionPresets,
  presetTiers,
  presetDescriptions,
  type SelectionPreset,
  type SelectionEstimate,
  type EngineCostEstimate,
  type ScorerRef,
  type ScorerTier,
} from '../presets';

/** Bounds on a parse given with a request: at most this many sub-tasks, each sub-task and state at most this long. */
export const maxGivenParseSubtasks = 20;
export const maxGivenParseChars = 1000;

export interface SelectRequest {
  task: string;
  variant?: Variant;
  /** k for the ranked variants (no-parse, dense, llm). */
  k?: number;
  /** K of the recall; default from settings. */
  recallK?: number;
  /** A parse typed by hand; otherwise the LLM parses the task (or the cached parse is used). */
  parse?: Pick<TaskParse, 'subtasks' | 'states'>;
  /** Who wrote `parse`, recorded in the trace: the calling agent (over MCP), or a person (default). */
  parseBy?: 'agent' | 'manual';
  sourceId?: number;
  /** Which engine scores each use of r; default from Settings (selection.preset). */
  preset?: SelectionPreset;
  /** Names this run for `select.progress` events and `select.cancel`. */
  requestId?: string;
}

export interface SelectionResult {
  runId: number;
  variant: Variant;
  answer: { skillId: number; name: string }[];
  trace: SelectionTrace;
  /** Set when an agent asked for the run over the MCP server (select.get says so). */
  via?: 'mcp';
  /** The answer explained in sentences (why each skill, what was dropped, where gold skills were lost). */
  why?: SelectionWhy;
}

export interface TraceEdits {
  states?: { index: number; text: string }[];
  subtasks?: { index: number; text: string }[];
  skills?: { skillId: number; precondition?: string | null; completion?: string }[];
  scores?: { key: string; r: number }[];
  /** Edits in the engine's own form (the CLI's `--edit` parses to these); applied after the ones above. */
  exact?: TraceEdit[];
}

export interface SelectionRunSummary {
  runId: number;
  task: string;
  variant: Variant;
  answer: string[];
  createdAt: string;
  /** Set when an agent asked for the run over the MCP server. */
  via?: 'mcp';
}

export interface SelectApi {
  'select.run'(req: SelectRequest): Promise<SelectionResult>;
  /** Runs several variants on one task (same parse, same candidates) for side-by-side comparison. */
  'select.compare'(req: Omit<SelectRequest, 'variant'> & { variants: Variant[] }): Promise<SelectionResult[]>;
  'select.replay'(req: {
    runId?: number;
    trace?: SelectionTrace;
    edits: TraceEdits;
  }): Promise<SelectionResult>;
  /** Pairs, tokens and seconds the selection would take with this preset on this machine, before running it. */
  'select.estimate'(
    req: Omit<SelectRequest, 'variant' | 'requestId'> & { variants?: Variant[] },
  ): Promise<SelectionEstimate>;
  /** Stops a running selection started with this requestId; false when none is running. */
  'select.cancel'(req: { requestId: string }): Promise<{ cancelled: boolean }>;
  /** The newest stored runs; `evaluations: false` leaves out those an evaluation stored. */
  'select.runs'(req: { limit?: number; evaluations?: boolean }): Promise<SelectionRunSummary[]>;
  'select.get'(req: { runId: number }): Promise<SelectionResult>;
  'export.skills'(req: {
    skillIds: number[];
    format: 'folder' | 'zip' | 'json';
    destination: string;
  }): Promise<{ destination: string; written: string[]; missing: { name: string; reason: string }[] }>;
}

export const selectMethods = [
  'select.run',
  'select.compare',
  'select.replay',
  'select.estimate',
  'select.cancel',
  'select.runs',
  'select.get',
  'export.skills',
] as const;
