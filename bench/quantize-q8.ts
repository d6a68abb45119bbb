// Writes onnx/model_quantized.onnx (q8, as onnxruntime's quantize_dynamic lays it out) into a model folder from its
// fp32 onnx/model.onnx, so the slot's dtype `auto` picks q8 on the CPU there. Used for the shape model with a
// key/value cache (bench/qwen3-shape-kv.py), whose q8 twin nothing else here writes.
// Run: npx tsx bench/quantize-q8.ts DIR   (DIR/onnx/model.onnx must exist; the q8 file must not)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { quantizeDynamic } from '../test/fixtures/tiny-models/quantize-dynamic';

const dir = process.argv[2];
if (!dir) throw new Error('usage: npx tsx bench/quantize-q8.ts DIR');
const source = path.join(dir, 'onnx', 'model.onnx');
const target = path.join(dir, 'onnx', 'model_quantized.onnx');
if (!existsSync(source)) throw new Error(`${source} does not exist`);
if (existsSync(target)) throw new Error(`${target} exists already`);
const t0 = performance.now();
quantizeDynamic(source, target);
console.log(`wrote ${target} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
