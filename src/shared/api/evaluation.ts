// Label sets and evaluation runs that compare variants.
import type { JobInfo } from '../jobs';
import type { Variant } from './select';

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
  createdAt: string;
}

export interface VariantMetrics {
  variant: Variant;
  k?: number;
  precision: number;
  recall: number;
  f1: number;
  exactMatch: number;
  hitAt1?: number;
  stageCoverage?: number;
  meanAnswerSize: number;
  answerSizes: Record<string, number>;
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  msPerTask: number;
}

export interface EvalTaskResult {
  itemId: string;
  task: string;
  variant: Variant;
  k?: number;
  gold: string[];
  answer: string[];
  precision: number;
  recall: number;
  f1: number;
  exactMatch: boolean;
  hitAt1?: boolean;
  stageCoverage?: number;
  recallAtK: number;
  ms: number;
}

export interface EvalRunReport {
  runId: number;
  setId: number;
  setName: string;
  status: string;
  variants: Variant[];
  recallAtK: number;
  recallK: number;
  engine: string;
  summary: VariantMetrics[];
  tasks: EvalTaskResult[];
  createdAt: string;
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
  'eval.show'(req: { runId: number }): Promise<EvalRunReport>;
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
