// Picks the scoring engines from the settings (lexical by default, ONNX or remote when configured) and hands out
// the recall function and the cached cross-encoder that search, selection and evaluation share.
import type { EngineStatus, ModelRole, ModelVerifyReport } from '../shared/api';
import type { Settings } from '../shared/settings';
import { lexicalCrossEncoderId, createLexicalCrossEncoder } from './models/lexical/lexical-cross-encoder';
import { lexicalRecallEngine } from './models/lexical/lexical-recall';
import type { CrossEncoder, Embedder } from './models/ports';
import { createCachedCrossEncoder } from './models/score-cache';
import type { OnnxDtype } from './models/manager/dtype-device';
import { verifyModelFolder } from './models/manager/verify-folder';
import { recallSkills } from './search/recall';
import { instructionVersions } from './select/instructions';
import type { RecallFn } from './select/recall';
import type { Db } from './store/db';

/** Builds the non-lexical engines; supplied by the host (the ONNX worker, remote endpoints). */
export interface EngineFactory {
  embedder(settings: Settings): Promise<Embedder>;
  crossEncoder(settings: Settings): Promise<CrossEncoder>;
  /** Provider that runs and why a fallback happened, per role, once loaded. */
  describe?(
    role: 'embedder' | 'reranker',
  ): Pick<EngineStatus, 'provider' | 'fallbackReason' | 'modelFile' | 'headNote' | 'loaded'>;
  verify?(folder: string, role: ModelRole, dtype?: OnnxDtype): Promise<ModelVerifyReport>;
  dispose?(): Promise<void>;
}

export interface Engines {
  /** The vector engine, or null when the recall is lexical. */
  embedder(): Promise<Embedder | null>;
  crossEncoder(): Promise<CrossEncoder>;
  recall(): Promise<{ recall: RecallFn; id: string }>;
  status(): EngineStatus[];
  /** Drops loaded engines (settings changed). */
  reset(): Promise<void>;
  /** Checks a model folder, in the model worker when the host has one. */
  verifyModel(folder: string, role: ModelRole, dtype?: string): Promise<ModelVerifyReport>;
  /** Drops engines and stops the factories' workers. */
  close(): Promise<void>;
}

export function createEngines(
  db: Db,
  settings: () => Settings,
  factories: Record<'onnx' | 'remote', EngineFactory | undefined>,
): Engines {
  let embedder: Promise<Embedder | null> | undefined;
  let crossEncoder: Promise<CrossEncoder> | undefined;
  const cacheVersion = Object.values(instructionVersions()).join('+');

  const factoryFor = (kind: 'onnx' | 'remote') => {
    const factory = factories[kind];
    if (!factory) throw new Error(`The ${kind} engine is not available in this host`);
    return factory;
  };

  const engines: Engines = {
    embedder() {
      embedder ??= (async () => {
        const kind = settings().engines.embedder;
        return kind === 'lexical' ? null : factoryFor(kind).embedder(settings());
      })();
      embedder.catch(() => (embedder = undefined));
      return embedder;
    },
    crossEncoder() {
      crossEncoder ??= (async () => {
        const kind = settings().engines.crossEncoder;
        const inner =
          kind === 'lexical'
            ? createLexicalCrossEncoder(db)
            : await factoryFor(kind).crossEncoder(settings());
        return createCachedCrossEncoder(inner, db, cacheVersion);
      })();
      crossEncoder.catch(() => (crossEncoder = undefined));
      return crossEncoder;
    },
    async recall() {
      const deps = {
        db,
        embedder: (await engines.embedder()) ?? undefined,
        recallInstruction: settings().selection.recallInstruction,
      };
      return {
        id: deps.embedder?.dim ? deps.embedder.id : lexicalRecallEngine,
        recall: async (query, k) => (await recallSkills(deps, query, k)).candidates,
      };
    },
    status() {
      const s = settings();
      const describe = (role: 'embedder' | 'reranker', kind: 'lexical' | 'onnx' | 'remote'): EngineStatus => {
        if (kind === 'lexical') {
          return {
            role,
            engine: 'lexical',
            id: role === 'embedder' ? lexicalRecallEngine : lexicalCrossEncoderId,
            loaded: true,
          };
        }
        const slot =
          kind === 'onnx'
            ? s.models[role].path
            : s.remote[role === 'embedder' ? 'embeddings' : 'rerank'].model;
        return {
          role,
          engine: kind,
          id: slot || '(not configured)',
          loaded: false,
          ...factories[kind]?.describe?.(role),
        };
      };
      return [describe('embedder', s.engines.embedder), describe('reranker', s.engines.crossEncoder)];
    },
    async reset() {
      const [e, c] = await Promise.allSettled([embedder, crossEncoder]);
      embedder = crossEncoder = undefined;
      if (e.status === 'fulfilled') await e.value?.dispose?.();
      if (c.status === 'fulfilled') await c.value?.dispose?.();
    },
    async verifyModel(folder, role, dtype) {
      const onnx = factories.onnx;
      if (onnx?.verify) return onnx.verify(folder, role, dtype as OnnxDtype | undefined);
      // Without a worker, only the files are checked: opening a real model here would block the event loop.
      return verifyModelFolder(folder, role, { dtype: dtype as OnnxDtype | undefined, openModel: false });
    },
    async close() {
      await engines.reset();
      await Promise.all([factories.onnx?.dispose?.(), factories.remote?.dispose?.()]);
    },
  };
  return engines;
}
