// Model folders: verification with precise problems, dtype and device choice with a CPU fallback that says why.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chooseDtype,
  deviceCandidates,
  dtypeOfOnnxFile,
  onnxFileForDtype,
} from '../../src/core/models/manager/dtype-device';
import { verifyModelFolder } from '../../src/core/models/manager/verify-folder';
import { createOnnxEmbedder } from '../../src/core/models/onnx/qwen3-embedder';
import { ensureTinyQwen3 } from '../fixtures/tiny-models/tiny-qwen3';

const work = mkdtempSync(path.join(os.tmpdir(), 'models-manager-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const baseDir = ensureTinyQwen3({ head: 'base', dtypes: ['fp32', 'q8'] });
const lmDir = ensureTinyQwen3({ head: 'lm', dtypes: ['fp32'] });

let copies = 0;
function copyOf(dir: string): string {
  const out = path.join(work, `m${copies++}`);
  cpSync(dir, out, { recursive: true });
  return out;
}
const messages = (r: { problems: { message: string }[] }) => r.problems.map((p) => p.message);

describe('dtype and device choice', () => {
  it('uses q8 on the CPU and fp16 on a GPU, with transformers.js file names', () => {
    expect(chooseDtype('cpu', ['fp32', 'q8', 'fp16'])).toBe('q8');
    expect(chooseDtype('cuda', ['fp32', 'q8', 'fp16'])).toBe('fp16');
    expect(chooseDtype('cuda', ['q8'])).toBe('q8');
    expect(chooseDtype('cpu', ['fp32', 'fp16'])).toBe('fp32');
    expect(chooseDtype('cpu', ['fp32'], 'fp16')).toBeUndefined();
    expect(onnxFileForDtype('q8')).toBe('onnx/model_quantized.onnx');
    expect(onnxFileForDtype('fp16')).toBe('onnx/model_fp16.onnx');
    expect(onnxFileForDtype('fp32')).toBe('onnx/model.onnx');
    expect(dtypeOfOnnxFile('model_q4f16.onnx')).toBe('q4f16');
    expect(dtypeOfOnnxFile('model.onnx_data')).toBeUndefined();
  });

  it('tries the platform GPU provider first and always ends on the CPU', () => {
    expect(deviceCandidates('auto', 'linux', 'x64')).toEqual(['cuda', 'cpu']);
    expect(deviceCandidates('auto', 'win32', 'x64')).toEqual(['dml', 'cpu']);
    expect(deviceCandidates('auto', 'darwin', 'arm64')).toEqual(['coreml', 'cpu']);
    expect(deviceCandidates('auto', 'darwin', 'x64')).toEqual(['cpu']);
    expect(deviceCandidates('dml', 'linux', 'x64')).toEqual(['dml', 'cpu']);
    expect(deviceCandidates('cpu', 'linux', 'x64')).toEqual(['cpu']);
  });

  it('falls back to the CPU when the GPU provider cannot load, and says why', async () => {
    const embedder = await createOnnxEmbedder({ folder: baseDir, device: 'dml' });
    const info = await embedder.load();
    expect(info.device).toBe('cpu');
    expect(info.dtype).toBe('q8');
    expect(info.fallbackReason).toMatch(/^dml: /);
    expect(await embedder.embed(['still works'], { role: 'document' })).toHaveLength(1);
  });
});

describe('verifyModelFolder', () => {
  it('accepts a good embedder and reranker folder and reports what it found', async () => {
    const report = await verifyModelFolder(baseDir, 'embedder');
    expect(report).toMatchObject({
      ok: true,
      modelType: 'qwen3',
      dtype: 'q8',
      onnxFile: 'onnx/model_quantized.onnx',
    });
    expect(report.inputs).toEqual(['input_ids', 'attention_mask', 'position_ids']);
    expect(report.outputs).toEqual(['last_hidden_state']);
    const reranker = await verifyModelFolder(lmDir, 'reranker');
    expect(reranker).toMatchObject({ ok: true, dtype: 'fp32', outputs: ['logits'], problems: [] });
    // Hub exports also take an (empty) key/value cache, which transformers.js fills in.
    const withCache = await verifyModelFolder(
      ensureTinyQwen3({ head: 'lm', pastKeyValues: true }),
      'reranker',
    );
    expect(withCache.ok).toBe(true);
    expect(withCache.inputs).toContain('past_key_values.0.value');
  });

  it('names a missing config, tokenizer or onnx folder', async () => {
    const dir = copyOf(baseDir);
    rmSync(path.join(dir, 'config.json'));
    rmSync(path.join(dir, 'tokenizer.json'));
    rmSync(path.join(dir, 'onnx'), { recursive: true });
    const report = await verifyModelFolder(dir, 'embedder');
    expect(report.ok).toBe(false);
    expect(messages(report)).toEqual([
      'config.json is missing',
      'tokenizer.json is missing (the tokenizer)',
      'the onnx/ folder is missing',
    ]);
    expect((await verifyModelFolder(path.join(dir, 'nope'), 'embedder')).problems[0]?.message).toMatch(
      /is not a folder/,
    );
  });

  it('rejects another model type and a tokenizer whose yes/no ids are not Qwen3', async () => {
    const dir = copyOf(lmDir);
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...config, model_type: 'bert' }));
    const tokenizer = JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as {
      model: { vocab: Record<string, number> };
    };
    tokenizer.model.vocab.yes = 2152;
    tokenizer.model.vocab.no = 9693;
    writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
    const report = await verifyModelFolder(dir, 'reranker');
    expect(messages(report)).toEqual([
      'model_type is "bert", expected "qwen3" (Qwen3-Embedding / Qwen3-Reranker)',
      '"yes" tokenizes to [2152], expected [9693] (the score reads this logit); this is not the Qwen3 tokenizer',
      '"no" tokenizes to [9693], expected [2152] (the score reads this logit); this is not the Qwen3 tokenizer',
    ]);
  });

  it('says which dtype file is missing and which ones the folder has', async () => {
    const report = await verifyModelFolder(baseDir, 'embedder', { dtype: 'fp16' });
    expect(messages(report)).toEqual([
      'onnx/model_fp16.onnx is missing; the folder has onnx/model.onnx, onnx/model_quantized.onnx',
    ]);
  });

  it('notices an embedder used as reranker and the reverse, from the graph outputs', async () => {
    const asReranker = await verifyModelFolder(baseDir, 'reranker');
    expect(messages(asReranker)).toEqual([
      'the model has no output logits; outputs: last_hidden_state (it has last_hidden_state: this looks like an embedding model export)',
    ]);
    const asEmbedder = await verifyModelFolder(lmDir, 'embedder');
    expect(messages(asEmbedder)[0]).toMatch(/no output last_hidden_state; outputs: logits .*reranker/);
  });

  it('reports an onnx file that onnxruntime cannot open and missing external weights', async () => {
    const dir = copyOf(lmDir);
    writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'not a model');
    expect(messages(await verifyModelFolder(dir, 'reranker'))[0]).toMatch(
      /^onnxruntime cannot open onnx\/model.onnx: /,
    );
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ ...config, 'transformers.js_config': { use_external_data_format: true } }),
    );
    expect(messages(await verifyModelFolder(dir, 'reranker'))).toEqual([
      'onnx/model.onnx_data is missing (config.json says the weights are stored beside the graph)',
    ]);
  });
});
