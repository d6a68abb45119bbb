// The two scorer ports of METHOD.md ("Scorers"). Every engine (ONNX, lexical, remote) implements them; the rest of the core sees only these.

export type EngineKind = 'onnx' | 'lexical' | 'remote';

export interface ProgressReport {
  done: number;
  total: number;
}

export interface EmbedOptions {
  /** Queries are wrapped as `Instruct: <instruction>\nQuery:<text>`; documents are embedded bare. */
  role: 'query' | 'document';
  instruction?: string;
  signal?: AbortSignal;
  onProgress?: (p: ProgressReport) => void;
}

export interface Embedder {
  /** Model id (or `lexical:*`), recorded with every vector it makes. */
  readonly id: string;
  readonly engine: EngineKind;
  /** Vector length; 0 for engines that do not produce vectors (lexical). */
  readonly dim: number;
  /** Unit vectors, one per text, in input order. */
  embed(texts: string[], options: EmbedOptions): Promise<Float32Array[]>;
  dispose?(): Promise<void>;
}

export interface ScorePair {
  query: string;
  document: string;
}

export interface CrossScoreOptions {
  instruction: string;
  signal?: AbortSignal;
  onProgress?: (p: ProgressReport) => void;
  /** Token budget for the whole prompt; only the document is cut. */
  maxTokens?: number;
}

export interface CrossScore {
  /** r(a, b) = logit("yes") - logit("no") at the last position (or a log-odds-like lexical score). */
  r: number;
  /** The document was cut to fit the token budget. */
  truncated: boolean;
}

export interface CrossEncoder {
  readonly id: string;
  readonly engine: EngineKind;
  /** The precision of the loaded weights (`fp32`, `q8`, …); absent for engines without weights (lexical). */
  readonly weights?: string;
  /** Scores in input order. */
  score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]>;
  dispose?(): Promise<void>;
}
