// Local and remote models: install, verify, status, the vector index.
import type { JobInfo } from '../jobs';

export type ModelRole = 'embedder' | 'reranker';

export interface ModelProblem {
  file?: string;
  message: string;
}

export interface ModelVerifyReport {
  role: ModelRole;
  path: string;
  ok: boolean;
  modelType?: string;
  dtype?: string;
  onnxFile?: string;
  inputs?: string[];
  outputs?: string[];
  problems: ModelProblem[];
  /** Reranker: the graph derived beside onnxFile that computes only the yes/no logits (what scoring runs). */
  derivedFile?: string;
  /** Reranker: why no yes/no graph could be derived (scoring then runs onnxFile's full-vocabulary logits). */
  derivedNote?: string;
}

export interface EngineStatus {
  role: ModelRole;
  engine: 'onnx' | 'lexical' | 'remote';
  id: string;
  /** Execution provider that actually runs (cpu, cuda, dml, coreml), and why a fallback happened. */
  provider?: string;
  fallbackReason?: string;
  /** The ONNX file that runs, relative to the model folder (a reranker's derived onnx/model.yesno.onnx). */
  modelFile?: string;
  /** Why a reranker runs its full-vocabulary graph instead of the derived yes/no graph. */
  headNote?: string;
  loaded: boolean;
}

export interface IndexStatus {
  modelId: string | null;
  dim: number | null;
  vectors: number;
  skills: number;
  missing: number;
  stale: boolean;
  staleReason?: string;
  /** Skills whose fast-preset skill side (document, states) is stored for the current embedder. */
  skillSide?: { current: number; skills: number };
}

export interface ModelsApi {
  'models.status'(req: Record<string, never>): Promise<EngineStatus[]>;
  'models.verify'(req: { role: ModelRole; path: string }): Promise<ModelVerifyReport>;
  /** Uses a local folder for a role (verified first; settings updated). */
  'models.add'(req: {
    role: ModelRole;
    path: string;
    dtype?: string;
    device?: string;
  }): Promise<ModelVerifyReport>;
  /** Downloads the published ONNX export for a role into the data folder (a job; resumable). */
  'models.download'(req: { role: ModelRole; repo?: string; dtype?: string }): Promise<JobInfo>;
  'index.status'(req: Record<string, never>): Promise<IndexStatus>;
  'index.build'(req: Record<string, never>): Promise<JobInfo>;
}

export const modelsMethods = [
  'models.status',
  'models.verify',
  'models.add',
  'models.download',
  'index.status',
  'index.build',
] as const;
