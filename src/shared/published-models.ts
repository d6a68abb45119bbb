// The published ONNX exports the app downloads, with what a curator without network needs to fetch them by hand.

export type PublishedRole = 'embedder' | 'reranker';

export interface PublishedModelInfo {
  repo: string;
  /** Model id recorded with vectors and scores. */
  id: string;
}

export const publishedModelInfo: Record<PublishedRole, PublishedModelInfo> = {
  embedder: { repo: 'onnx-community/Qwen3-Embedding-0.6B-ONNX', id: 'Qwen3-Embedding-0.6B' },
  reranker: { repo: 'onnx-community/Qwen3-Reranker-0.6B-ONNX', id: 'Qwen3-Reranker-0.6B' },
};

/** About 0.6 B parameters each: the weights' size per dtype, for "what will this download" (config files are tiny). */
export const approxWeightsBytes: Record<'fp32' | 'fp16' | 'q8' | 'q4', number> = {
  fp32: 2.4e9,
  fp16: 1.2e9,
  q8: 0.6e9,
  q4: 0.45e9,
};

/** The folder a hand-made download must have: the app reads exactly these paths. */
export const modelFolderLayout = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx  (fp32; or model_fp16.onnx, model_quantized.onnx for q8, model_q4.onnx)',
  'onnx/model.onnx_data  (only when the export has one)',
];
