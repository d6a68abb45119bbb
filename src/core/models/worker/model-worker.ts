// The worker process's loop: loads each model once on first use, runs one request at a time, and stops a request
// between batches when the app cancels it. Errors go back as data; the process itself only dies from a real crash.
import { CuratorError, toErrorData } from '../../../shared/errors';
import { verifyModelFolder } from '../manager/verify-folder';
import type { PaddingStats } from '../onnx/batches';
import { createOnnxEmbedder, type OnnxEmbedder } from '../onnx/qwen3-embedder';
import { createOnnxCrossEncoder, type OnnxCrossEncoder } from '../onnx/qwen3-reranker';
import type { HostToWorker, ModelSpec, WorkerPort, WorkRequest } from './protocol';

type Loaded = OnnxEmbedder | OnnxCrossEncoder;

export function specKey(spec: ModelSpec): string {
  return JSON.stringify(Object.entries(spec).sort(([a], [b]) => a.localeCompare(b)));
}

export function runModelWorker(port: WorkerPort): void {
  const models = new Map<string, Promise<Loaded>>();
  const running = new Map<number, AbortController>();
  let chain: Promise<void> = Promise.resolve();

  function model(spec: ModelSpec): Promise<Loaded> {
    const key = specKey(spec);
    let m = models.get(key);
    if (!m) {
      m = spec.role === 'embedder' ? createOnnxEmbedder(spec) : createOnnxCrossEncoder(spec);
      m.catch(() => models.delete(key));
      models.set(key, m);
    }
    return m;
  }

  async function handle(request: WorkRequest & { id: number }, signal: AbortSignal): Promise<void> {
    const { id } = request;
    const onProgress = (p: { done: number; total: number }) => port.send({ type: 'progress', id, ...p });
    const before = (m: Loaded): PaddingStats => ({ ...m.stats });
    const delta = (m: Loaded, b: PaddingStats): PaddingStats => ({
      batches: m.stats.batches - b.batches,
      tokens: m.stats.tokens - b.tokens,
      paddedTokens: m.stats.paddedTokens - b.paddedTokens,
    });
    if (signal.aborted) throw new CuratorError('CANCELLED', 'Cancelled before it started', { done: 0 });
    switch (request.type) {
      case 'load': {
        const info = await (await model(request.spec)).load();
        port.send({ type: 'result', id, value: info });
        return;
      }
      case 'verify': {
        const value = await verifyModelFolder(request.folder, request.role, { dtype: request.dtype });
        port.send({ type: 'result', id, value });
        return;
      }
      case 'unload': {
        const key = specKey(request.spec);
        const m = models.get(key);
        models.delete(key);
        await (await m?.catch(() => undefined))?.dispose();
        port.send({ type: 'result', id, value: null });
        return;
      }
      case 'embed': {
        const m = (await model(request.spec)) as OnnxEmbedder;
        const b = before(m);
        const value = await m.embed(request.texts, {
          role: request.role,
          instruction: request.instruction,
          signal,
          onProgress,
        });
        port.send({ type: 'result', id, value, stats: delta(m, b) });
        return;
      }
      case 'score': {
        const m = (await model(request.spec)) as OnnxCrossEncoder;
        const b = before(m);
        const value = await m.score(request.pairs, {
          instruction: request.instruction,
          maxTokens: request.maxTokens,
          signal,
          onProgress,
        });
        port.send({ type: 'result', id, value, stats: delta(m, b) });
        return;
      }
    }
  }

  port.onMessage((message: HostToWorker) => {
    if (message.type === 'cancel') {
      running.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    chain = chain
      .then(() => handle(message, controller.signal))
      .catch((error: unknown) => port.send({ type: 'error', id: message.id, error: toErrorData(error) }))
      .finally(() => running.delete(message.id));
  });
}
