// Checks that a folder holds a Qwen3 embedder or reranker that our ONNX path can run, and says exactly what is wrong.
// Opening the ONNX file costs memory and seconds for a real model: run it in the model worker, not on the app's loop.
import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelProblem, ModelRole, ModelVerifyReport } from '../../../shared/api/models';
import { importTransformers, errorText } from '../onnx/load-model';
import { QWEN3_END_OF_TEXT } from '../onnx/qwen3-embedder';
import { QWEN3_NO, QWEN3_YES } from '../onnx/qwen3-reranker-template';
import { chooseDtype, dtypeOfOnnxFile, onnxFileForDtype, type OnnxDtype } from './dtype-device';
import { parseJsonText } from '../../json-syntax';

const requiredInputs = ['input_ids', 'attention_mask'];
// Inputs transformers.js fills in itself for Qwen3 decoder exports.
const knownInput = (name: string) =>
  requiredInputs.includes(name) ||
  ['position_ids', 'num_logits_to_keep', 'use_cache_branch'].includes(name) ||
  name.startsWith('past_key_values.');

const expectedOutput: Record<ModelRole, string> = { embedder: 'last_hidden_state', reranker: 'logits' };

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function readJson(
  file: string,
  problems: ModelProblem[],
): Promise<Record<string, unknown> | undefined> {
  const name = path.basename(file);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    problems.push({ file: name, message: `${name} is missing` });
    return undefined;
  }
  const json = parseJsonText(text);
  if (json.ok) return json.value as Record<string, unknown>;
  problems.push({ file: name, message: `${name} is ${json.message}` });
  return undefined;
}

async function checkTokenizer(folder: string, role: ModelRole, problems: ModelProblem[]): Promise<void> {
  const t = await importTransformers();
  t.env.allowRemoteModels = false;
  let tokenizer;
  try {
    tokenizer = await t.AutoTokenizer.from_pretrained(folder);
  } catch (error) {
    problems.push({ file: 'tokenizer.json', message: `the tokenizer does not load: ${errorText(error)}` });
    return;
  }
  const ids = (s: string) => tokenizer.encode(s, { add_special_tokens: false });
  const expect = (text: string, id: number, why: string) => {
    const got = ids(text);
    if (got.length !== 1 || got[0] !== id) {
      problems.push({
        file: 'tokenizer.json',
        message: `"${text}" tokenizes to [${got.join(', ')}], expected [${id}] (${why}); this is not the Qwen3 tokenizer`,
      });
    }
  };
  expect('<|endoftext|>', QWEN3_END_OF_TEXT, 'the end-of-text token');
  if (role === 'reranker') {
    expect('yes', QWEN3_YES, 'the score reads this logit');
    expect('no', QWEN3_NO, 'the score reads this logit');
  }
}

async function checkSession(
  file: string,
  role: ModelRole,
  report: ModelVerifyReport,
  problems: ModelProblem[],
): Promise<void> {
  const name = path.relative(report.path, file);
  let session;
  try {
    const ort = await import('onnxruntime-node');
    session = await ort.InferenceSession.create(file, { graphOptimizationLevel: 'disabled' });
  } catch (error) {
    problems.push({ file: name, message: `onnxruntime cannot open ${name}: ${errorText(error)}` });
    return;
  }
  try {
    report.inputs = [...session.inputNames];
    report.outputs = [...session.outputNames];
    for (const input of requiredInputs) {
      if (!session.inputNames.includes(input))
        problems.push({ file: name, message: `the model has no input ${input}` });
    }
    for (const meta of session.inputMetadata) {
      if (requiredInputs.includes(meta.name) && meta.isTensor && meta.type !== 'int64') {
        problems.push({ file: name, message: `input ${meta.name} is ${meta.type}, expected int64` });
      }
      if (!knownInput(meta.name)) problems.push({ file: name, message: `unexpected input ${meta.name}` });
    }
    const want = expectedOutput[role];
    if (!session.outputNames.includes(want)) {
      const other = role === 'embedder' ? 'logits' : 'last_hidden_state';
      const hint = session.outputNames.includes(other)
        ? ` (it has ${other}: this looks like ${role === 'embedder' ? 'a reranker / causal LM' : 'an embedding model'} export)`
        : '';
      problems.push({
        file: name,
        message: `the model has no output ${want}; outputs: ${session.outputNames.join(', ')}${hint}`,
      });
    }
  } finally {
    await session.release();
  }
}

/** Verifies a model folder for a role; `dtype` defaults to what the CPU would load (q8, else the nearest file). */
export async function verifyModelFolder(
  folder: string,
  role: ModelRole,
  options: { dtype?: OnnxDtype; openModel?: boolean } = {},
): Promise<ModelVerifyReport> {
  const root = path.resolve(folder);
  const problems: ModelProblem[] = [];
  const report: ModelVerifyReport = { role, path: root, ok: false, problems };
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) {
    problems.push({ message: `${root} is not a folder` });
    return report;
  }

  const config = await readJson(path.join(root, 'config.json'), problems);
  if (config) {
    report.modelType = typeof config.model_type === 'string' ? config.model_type : undefined;
    if (config.model_type !== 'qwen3') {
      problems.push({
        file: 'config.json',
        message: `model_type is ${JSON.stringify(config.model_type ?? null)}, expected "qwen3" (Qwen3-Embedding / Qwen3-Reranker)`,
      });
    }
    if (typeof config.hidden_size !== 'number')
      problems.push({ file: 'config.json', message: 'hidden_size is missing' });
  }

  const tokenizerFiles = ['tokenizer.json', 'tokenizer_config.json'];
  const missingTokenizer = [];
  for (const f of tokenizerFiles) if (!(await exists(path.join(root, f)))) missingTokenizer.push(f);
  for (const f of missingTokenizer) problems.push({ file: f, message: `${f} is missing (the tokenizer)` });
  if (missingTokenizer.length === 0) await checkTokenizer(root, role, problems);

  const onnxFiles = await readdir(path.join(root, 'onnx')).catch(() => undefined);
  if (!onnxFiles) {
    problems.push({ file: 'onnx', message: 'the onnx/ folder is missing' });
  } else {
    const available = onnxFiles.map((f) => dtypeOfOnnxFile(f)).filter((d): d is OnnxDtype => d !== undefined);
    const dtype = chooseDtype('cpu', available, options.dtype);
    if (!dtype) {
      const wanted = options.dtype ? onnxFileForDtype(options.dtype) : 'onnx/model*.onnx';
      const have = available.length
        ? `; the folder has ${available.map((d) => onnxFileForDtype(d)).join(', ')}`
        : '';
      problems.push({ file: 'onnx', message: `${wanted} is missing${have}` });
    } else {
      report.dtype = dtype;
      report.onnxFile = onnxFileForDtype(dtype);
      const file = path.join(root, report.onnxFile);
      const js = config?.['transformers.js_config'] as { use_external_data_format?: unknown } | undefined;
      if (js?.use_external_data_format && !(await exists(`${file}_data`))) {
        problems.push({
          file: `${report.onnxFile}_data`,
          message: `${report.onnxFile}_data is missing (config.json says the weights are stored beside the graph)`,
        });
      } else if (options.openModel !== false) {
        await checkSession(file, role, report, problems);
      }
    }
  }
  report.ok = problems.length === 0;
  return report;
}
