// Derives from a causal-LM export a graph that returns only the two logits the reranker reads: the hidden state at the
// last position times the "yes" and "no" rows of the LM head, instead of 151,669 logits at every position.
// The original file is never changed; the derived graph sits beside it and reuses its weights in place (external data
// keeps its files, large inline weights are referenced inside the original file), so it costs a few KB of disk.
// The `with-cache` variant also keeps the export's present.* outputs (the key/value cache), for prompt-prefix reuse:
// the prefix runs once per query and its cache feeds every document's run (see ./prefix-cache).
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CuratorError } from '../../../shared/errors';
import {
  AttributeType,
  decodeModel,
  encodeModel,
  int64,
  TensorType,
  type GraphProto,
  type NodeProto,
  type TensorProto,
} from './onnx-model-proto';
import { TensorBytes } from './tensor-bytes';

/** Bump when the derivation changes: older derived files are then made again. */
export const YESNO_DERIVATION = 2;
export const YESNO_OUTPUT = 'yes_no_logits';
/**
 * Input of the with-cache variant: how many positions of the key/value cache to return (int64 [1]). The prefix run
 * asks for all of them; document runs ask for 0, so their caches are not kept as outputs (graph outputs cannot be
 * freed or reused while a run lasts: 28 layers of keys and values for a whole batch).
 */
export const CACHE_KEEP_INPUT = 'cache_keep';
const INLINE_REFERENCE_BYTES = 1 << 20;

export interface YesNoModel {
  /** The derived graph, relative to the model folder (onnx/model.yesno.onnx for onnx/model.onnx). */
  file: string;
  /** The export it was derived from, relative to the model folder. */
  source: string;
  /** False when a derived file made earlier from the same source was reused. */
  created: boolean;
}

interface Stamp {
  derivation: number;
  source: string;
  tokens: number[];
  files: Record<string, { bytes: number; mtimeMs: number }>;
}

/** `plain`: the yes/no logits only; `with-cache`: also the present.* key/value outputs. */
export type YesNoVariant = 'plain' | 'with-cache';

/** onnx/model_quantized.onnx -> onnx/model_quantized.yesno.onnx (with-cache: .yesno-kv.onnx) */
export function yesNoFileFor(source: string, variant: YesNoVariant = 'plain'): string {
  return source.replace(/\.onnx$/, '') + (variant === 'with-cache' ? '.yesno-kv.onnx' : '.yesno.onnx');
}

const stampFileFor = (derived: string) => derived.replace(/\.onnx$/, '.json');

function notDerivable(source: string, why: string): CuratorError {
  return new CuratorError('MODEL_ERROR', `Cannot derive the yes/no graph from ${source}: ${why}`, {
    source,
    derivable: false,
  });
}

async function stampOf(
  folder: string,
  source: string,
  tokens: number[],
  externalFiles: string[],
): Promise<Stamp> {
  const files: Stamp['files'] = {};
  for (const rel of [source, ...externalFiles]) {
    const s = await stat(path.join(folder, rel));
    files[rel] = { bytes: s.size, mtimeMs: Math.round(s.mtimeMs) };
  }
  return { derivation: YESNO_DERIVATION, source, tokens, files };
}

/**
 * The derived graph for `source` (a path relative to `folder`), made now when it is missing or was made from another
 * version of the source; reused otherwise. Throws MODEL_ERROR with `derivable: false` when the head is not a MatMul
 * with a constant weight (the caller then runs the full-vocabulary graph).
 */
export async function ensureYesNoModel(
  folder: string,
  source: string,
  tokens: [yes: number, no: number],
  variant: YesNoVariant = 'plain',
): Promise<YesNoModel> {
  const derived = yesNoFileFor(source, variant);
  const stampFile = path.join(folder, stampFileFor(derived));
  const old = (await readFile(stampFile, 'utf8')
    .then((t) => JSON.parse(t) as Stamp)
    .catch(() => undefined)) satisfies Stamp | undefined;
  if (old && old.derivation === YESNO_DERIVATION && old.source === source) {
    const now = await stampOf(folder, source, tokens, Object.keys(old.files).slice(1)).catch(() => undefined);
    const derivedThere = await stat(path.join(folder, derived)).catch(() => undefined);
    if (now && derivedThere && JSON.stringify(now) === JSON.stringify(old))
      return { file: derived, source, created: false };
  }
  const { bytes, externalFiles } = await deriveYesNoGraph(folder, source, tokens, variant);
  const stamp = await stampOf(folder, source, tokens, externalFiles);
  const target = path.join(folder, derived);
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, bytes);
  await rename(temp, target);
  await writeFile(`${stampFile}.${process.pid}.tmp`, JSON.stringify(stamp, null, 2));
  await rename(`${stampFile}.${process.pid}.tmp`, stampFile);
  return { file: derived, source, created: true };
}

const headOps = new Set(['MatMul', 'MatMulInteger']);
// Element-wise steps an export may put between the head and the logits output (casts, dequantisation scales).
const passOps = new Set(['Identity', 'Cast', 'Mul', 'Add', 'Div', 'Sub', 'Tanh']);

/** Names a graph's nodes read, subgraphs (If/Loop bodies) included. */
function namesRead(graph: Pick<GraphProto, 'node'>, into = new Set<string>()): Set<string> {
  for (const node of graph.node) {
    for (const name of node.input) if (name) into.add(name);
    for (const a of node.attribute ?? []) {
      if (a.type === AttributeType.GRAPH && a.g) namesRead(a.g, into);
      if (a.type === AttributeType.GRAPHS) for (const g of a.graphs ?? []) namesRead(g, into);
    }
  }
  return into;
}

/** Drops nodes nothing reads and initializers no node reads. */
function pruneGraph(graph: GraphProto): void {
  for (;;) {
    const read = namesRead(graph);
    for (const o of graph.output) read.add(o.name);
    const kept = graph.node.filter((n) => n.output.some((o) => o && read.has(o)));
    if (kept.length === graph.node.length) break;
    graph.node = kept;
  }
  const read = namesRead(graph);
  graph.initializer = graph.initializer.filter((t) => read.has(t.name));
  const produced = new Set([...graph.node.flatMap((n) => n.output), ...graph.input.map((i) => i.name)]);
  graph.value_info = graph.value_info.filter((v) => produced.has(v.name));
}

export async function deriveYesNoGraph(
  folder: string,
  source: string,
  tokens: number[],
  variant: YesNoVariant = 'plain',
): Promise<{ bytes: Uint8Array; externalFiles: string[] }> {
  const sourcePath = path.join(folder, source);
  const dir = path.dirname(sourcePath);
  const file = await readFile(sourcePath);
  let model;
  try {
    model = decodeModel(file);
  } catch (error) {
    throw notDerivable(source, `it is not an ONNX model (${(error as Error).message})`);
  }
  const graph = model.graph;
  const logitsOut = graph.output.find((o) => o.name === 'logits');
  if (!logitsOut) throw notDerivable(source, 'the graph has no output named logits');
  const outDims = logitsOut.type?.tensor_type?.shape?.dim ?? [];
  if (outDims.length !== 3) throw notDerivable(source, `logits has rank ${outDims.length}, expected 3`);

  const producer = new Map<string, NodeProto>();
  for (const node of graph.node) for (const o of node.output) producer.set(o, node);
  const inits = new Map(graph.initializer.map((t) => [t.name, t]));
  const isConstant = (name: string) => inits.has(name) || producer.get(name)?.op_type === 'Constant';

  const reachesHead = (name: string, depth: number): boolean => {
    const node = producer.get(name);
    if (!node || depth > 8) return false;
    if (headOps.has(node.op_type)) return true;
    return (
      passOps.has(node.op_type) && node.input.some((x) => x && !isConstant(x) && reachesHead(x, depth + 1))
    );
  };
  /** A side operand's own small computation (a dequantisation scale: activation scale x weight scale). */
  const sideNodes = (name: string, depth: number): NodeProto[] => {
    const node = producer.get(name);
    if (!node || depth > 3 || !passOps.has(node.op_type)) return [];
    return [node, ...node.input.flatMap((x) => (x && !inits.has(x) ? sideNodes(x, depth + 1) : []))];
  };

  // Walk back from the output through element-wise steps to the head.
  const chain: NodeProto[] = [];
  const side: NodeProto[] = [];
  let tensor = 'logits';
  let head: NodeProto | undefined;
  for (let step = 0; step < 8 && !head; step++) {
    const node = producer.get(tensor);
    if (!node) throw notDerivable(source, `nothing produces ${tensor}`);
    if (headOps.has(node.op_type)) head = node;
    else if (passOps.has(node.op_type)) {
      const computed = node.input.filter((x) => x && !isConstant(x));
      const main = computed.length === 1 ? computed : computed.filter((x) => reachesHead(x, 0));
      if (main.length !== 1) throw notDerivable(source, `${node.op_type} before logits mixes two tensors`);
      chain.push(node);
      tensor = main[0]!;
      for (const x of computed) if (x !== tensor) side.push(...sideNodes(x, 0));
    } else throw notDerivable(source, `the logits come from ${node.op_type}, not from a MatMul head`);
  }
  if (!head) throw notDerivable(source, 'no MatMul head within 8 steps of the logits output');

  // The head's weight: an initializer [H, V], or a transposed [V, H] (tied embeddings), possibly behind Identity.
  let weightName = head.input[1] ?? '';
  let transposed = false;
  for (let step = 0; step < 4 && !inits.has(weightName); step++) {
    const node = producer.get(weightName);
    if (node?.op_type === 'Identity') weightName = node.input[0] ?? '';
    else if (node?.op_type === 'Transpose') {
      const perm = node.attribute?.find((a) => a.name === 'perm')?.ints?.map(int64);
      if (perm && !(perm[0] === 1 && perm[1] === 0))
        throw notDerivable(source, 'the head weight is permuted');
      transposed = !transposed;
      weightName = node.input[0] ?? '';
    } else break;
  }
  const weight = inits.get(weightName);
  if (!weight || weight.dims.length !== 2)
    throw notDerivable(source, `the ${head.op_type} head has no constant 2-D weight`);
  const vocab = int64(weight.dims[transposed ? 0 : 1]);
  if (tokens.some((t) => t >= vocab)) throw notDerivable(source, `the head has only ${vocab} rows`);

  const read = (t: TensorProto) => new TensorBytes(t, dir);
  const headWeight = transposed
    ? read(weight).pickRowsTransposed(tokens, 'yesno/lm_head')
    : read(weight).pickLast(tokens, 'yesno/lm_head');
  const added: TensorProto[] = [];
  const replace = (node: NodeProto, index: number, t: TensorProto) => {
    node.input[index] = t.name;
    added.push(t);
  };
  replace(head, 1, headWeight);
  // Per-column quantisation parameters or biases on the way to the output follow the same columns.
  for (const node of [head, ...chain, ...side]) {
    node.input.forEach((name, i) => {
      const t = inits.get(name);
      if (t && name !== weightName && t.dims.length > 0 && int64(t.dims.at(-1)) === vocab)
        replace(node, i, read(t).pickLast(tokens, `yesno/${name}`));
    });
  }

  // Keep only the last position before the head: left padding puts every row's last real token there.
  const longest = Number.MAX_SAFE_INTEGER;
  added.push(
    int64Tensor('yesno/last_start', [-1]),
    int64Tensor('yesno/last_end', [longest]),
    int64Tensor('yesno/last_axis', [1]),
  );
  const slice: NodeProto = {
    name: 'yesno/last_position',
    op_type: 'Slice',
    input: [head.input[0] ?? '', 'yesno/last_start', 'yesno/last_end', 'yesno/last_axis'],
    output: ['yesno/last_hidden'],
  };
  head.input[0] = 'yesno/last_hidden';
  graph.node.splice(graph.node.indexOf(head), 0, slice);

  const final = chain[0] ?? head;
  final.output = final.output.map((o) => (o === 'logits' ? YESNO_OUTPUT : o));
  const chainOutputs = new Set([head, ...chain, ...side].flatMap((n) => n.output));
  graph.value_info = graph.value_info.filter((v) => !chainOutputs.has(v.name));
  const batch = outDims[0] ?? { dim_param: 'batch_size' };
  const cacheOutputs = graph.output.filter((o) => o.name.startsWith('present'));
  if (variant === 'with-cache' && cacheOutputs.length === 0)
    throw notDerivable(source, 'the graph has no present.* key/value outputs');
  graph.output = [
    {
      name: YESNO_OUTPUT,
      type: {
        tensor_type: {
          elem_type: logitsOut.type?.tensor_type?.elem_type ?? TensorType.FLOAT,
          shape: { dim: [batch, { dim_value: 1 }, { dim_value: tokens.length }] },
        },
      },
    },
    ...(variant === 'with-cache' ? cacheOutputs : []),
  ];
  if (variant === 'with-cache')
    sliceCacheOutputs(
      graph,
      cacheOutputs.map((o) => o.name),
    );
  graph.initializer.push(...added);
  pruneGraph(graph);

  // Large inline weights stay in the original file: the derived graph points at their bytes there.
  const externalFiles = new Set<string>();
  for (const t of graph.initializer) {
    const raw = t.raw_data;
    if (raw && raw.byteLength >= INLINE_REFERENCE_BYTES && raw.buffer === file.buffer) {
      t.data_location = 1;
      t.external_data = [
        { key: 'location', value: path.basename(source) },
        { key: 'offset', value: String(raw.byteOffset - file.byteOffset) },
        { key: 'length', value: String(raw.byteLength) },
      ];
      delete t.raw_data;
    } else if (t.data_location === 1) {
      const location = t.external_data?.find((e) => e.key === 'location')?.value;
      if (location) externalFiles.add(path.posix.join(path.posix.dirname(source), location));
    }
  }
  model.metadata_props = [
    ...model.metadata_props.filter((p) => p.key !== 'skill_curator.derived'),
    {
      key: 'skill_curator.derived',
      value: JSON.stringify({
        from: path.basename(source),
        output: YESNO_OUTPUT,
        tokens,
        ...(variant === 'with-cache' ? { variant } : {}),
      }),
    },
  ];
  return { bytes: encodeModel(model), externalFiles: [...externalFiles].sort() };
}

function int64Tensor(name: string, values: number[]): TensorProto {
  const data = BigInt64Array.from(values.map(BigInt));
  return { name, dims: [values.length], data_type: TensorType.INT64, raw_data: new Uint8Array(data.buffer) };
}

/** Each present.* output becomes its first `cache_keep` positions (axis 2) of the cache the layer computed. */
function sliceCacheOutputs(graph: GraphProto, names: string[]): void {
  graph.input.push({
    name: CACHE_KEEP_INPUT,
    type: { tensor_type: { elem_type: TensorType.INT64, shape: { dim: [{ dim_value: 1 }] } } },
  });
  graph.initializer.push(int64Tensor('yesno/cache_start', [0]), int64Tensor('yesno/cache_axis', [2]));
  const renamed = new Map(names.map((n) => [n, `yesno/full/${n}`]));
  for (const node of graph.node) {
    node.output = node.output.map((o) => renamed.get(o) ?? o);
    node.input = node.input.map((i) => renamed.get(i) ?? i);
  }
  graph.value_info = graph.value_info.filter((v) => !renamed.has(v.name));
  for (const [name, full] of renamed)
    graph.node.push({
      name: `yesno/keep/${name}`,
      op_type: 'Slice',
      input: [full, 'yesno/cache_start', CACHE_KEEP_INPUT, 'yesno/cache_axis'],
      output: [name],
    });
}
