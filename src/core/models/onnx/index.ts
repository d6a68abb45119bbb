// The ONNX engine in-process (what the model worker runs); the app uses it through ../worker.
export { createOnnxEmbedder, queryText, type OnnxEmbedder, type OnnxEmbedderOptions } from './qwen3-embedder';
export {
  createOnnxCrossEncoder,
  type OnnxCrossEncoder,
  type OnnxCrossEncoderOptions,
} from './qwen3-reranker';
export { rerankerPrompt } from './qwen3-reranker-template';
export { paddingWaste, type PaddingStats } from './batches';
export type { LoadedModelInfo, OnnxModelOptions } from './load-model';
