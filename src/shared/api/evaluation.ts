// Label sets and evaluation runs that compare variants.
import type { JobInfo } from '../jobs';
import type { Variant } from '../trace';

export interface TaskMetrics {
  /** |A ∩ G| / |A|; 0 for an empty answer. */
  precision: number;
  /** |A ∩ G| / |G|. */
  recall: number;
  f1: number;
  /** The answer, as a set, equals the gold set. */
  exactMatch: boolean;
  /** Ranked variants: the first answer is gold or a member of a gold group. */
  hitAt1?: boolean;
  /** Share of required groups with at least one member in the answer (each gold skill is its own group when none are given). */
  stageCoverage: number;
  answerSize: number;
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  ms: number;
}

export interface MeanMetrics {
  tasks: number;
  precision: number;
  recall: number;
  f1: number;
  exactMatch: number;
  hitAt1?: number;
  stageCoverage: number;
  meanAnswerSize: number;
  /** How many tasks got an answer of each size. */
  answerSizes: Record<string, number>;
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  msPerTask: number;
}

export type EvalStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface EvalEngines {
  recall: string;
  crossEncoder: string | null;
  llm: string | null;
}

export interface VariantSummary extends MeanMetrics {
  variant: Variant;
  /** k of a ranked variant. */
  k?: number;
  /** Selections that failed (counted as empty answers in the means). */
  errors: number;
}

export interface EvalTaskRow extends TaskMetrics {
  itemId: string;
  task: string;
  variant: Variant;
  k?: number;
  gold: string[];
  answer: string[];
  recallAtK: number;
  selectionRunId: number | null;
  error: string | null;
}

export interface TaskDifference {
  itemId: string;
  task: string;
  gold: string[];
  recallAtK: number;
  /** Every variant's answer and F1 on this task, where not all F1 values are equal. */
  answers: { variant: Variant; k?: number; answer: string[]; f1: number }[];
}

export interface EvalReport {
  runId: number;
  setId: number;
  setName: string;
  status: EvalStatus;
  variants: Variant[];
  k: number[];
  recallK: number;
  engines: EvalEngines;
  /** Mean share of gold skills found by the recall: misses here are recall misses, not selection misses. */
  recallAtK: number;
  summary: VariantSummary[];
  tasks: EvalTaskRow[];
  differences: TaskDifference[];
  createdAt: string;
  finishedAt: string | null;
}

export interface LabelItem {
  id: string;
  task: string;
  gold: string[];
  groups?: string[][];
  parse?: { subtasks: string[]; states: string[] };
  domain?: string;
}

export interface LabelSetInfo {
  id: number;
  name: string;
  itemCount: number;
  sourcePath: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EvaluationApi {
  'labels.import'(req: { path: string; name?: string }): Promise<LabelSetInfo>;
  'labels.list'(req: Record<string, never>): Promise<LabelSetInfo[]>;
  'labels.get'(req: { id: number }): Promise<{ set: LabelSetInfo; items: LabelItem[] }>;
  'labels.saveItem'(req: { setId: number; item: LabelItem }): Promise<LabelItem>;
  'eval.run'(req: { setId: number; variants: Variant[]; k?: number[]; recallK?: number }): Promise<JobInfo>;
  'eval.list'(
    req: Record<string, never>,
  ): Promise<{ runId: number; setName: string; status: string; createdAt: string }[]>;
  'eval.show'(req: { runId: number }): Promise<EvalReport>;
  'eval.export'(req: { runId: number; format: 'json' | 'markdown' }): Promise<{ content: string }>;
}

export const evaluationMethods = [
  'labels.import',
  'labels.list',
  'labels.get',
  'labels.saveItem',
  'eval.run',
  'eval.list',
  'eval.show',
  'eval.export',
] as const;
