// For bench/selection-cost.ts --encoder: the ONNX cross-encoder on the real-shape random-weight Qwen3-0.6B model
// written by ../shared/tools/qwen3_shape_model.py (folder in $SHAPE_RERANKER, default ~/models/q3-rerank).
import os from 'node:os';
import path from 'node:path';
import { createOnnxCrossEncoder } from '../../src/core/models/onnx/qwen3-reranker';

export default async function shapeReranker() {
  const folder = process.env.SHAPE_RERANKER ?? path.join(os.homedir(), 'models', 'q3-rerank');
  const encoder = await createOnnxCrossEncoder({ folder, dtype: 'fp32', device: 'cpu', threads: 2 });
  await encoder.load();
  return encoder;
}
