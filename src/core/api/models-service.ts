// The models part of the API: engine status, model folders (verify, add, download), the vector index.
import path from 'node:path';
import type { IndexStatus, ModelRole, ModelsApi } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import type { Settings, SettingsPatch } from '../../shared/settings';
import type { CoreContext } from '../context';
import { publishedModels } from '../models/manager/catalog';
import { addDerivedModel } from '../models/manager/derived-model';
import { downloadModel } from '../models/manager/download';
import type { OnnxDtype } from '../models/manager/dtype-device';
import { skillSideCoverage, updateSkillSide } from '../search/skill-side-index';
import { buildVectorIndex, vectorIndexStatus } from '../search/vector-index';
import { skillSideRefresher } from './skill-side-refresh';

export const DOWNLOAD_JOB = 'models.download';
export const INDEX_JOB = 'index.build';

const roles: ModelRole[] = ['embedder', 'reranker'];

function checkRole(role: unknown): ModelRole {
  if (!roles.includes(role as ModelRole))
    throw new CuratorError('INVALID_ARGUMENT', 'The role is embedder or reranker');
  return role as ModelRole;
}

/** Settings that make a verified folder the ONNX engine of its role. */
function useFolderPatch(
  settings: Settings,
  role: ModelRole,
  folder: string,
  dtype?: string,
  device?: string,
): SettingsPatch {
  const slot = { ...settings.models[role], path: folder };
  if (dtype) slot.dtype = dtype as Settings['models']['embedder']['dtype'];
  if (device) slot.device = device as Settings['models']['embedder']['device'];
  return {
    models: { [role]: slot },
    engines: role === 'embedder' ? { embedder: 'onnx' } : { crossEncoder: 'onnx' },
  };
}

export function createModelsService(ctx: CoreContext): ModelsApi {
  const addFolder = async (role: ModelRole, folder: string, dtype?: string, device?: string) => {
    // `auto` (the slot's default) is no weights file: verify whichever file the device would pick.
    const file = dtype === 'auto' ? undefined : dtype;
    const report = await addDerivedModel(await ctx.engines.verifyModel(path.resolve(folder), role, file));
    if (!report.ok) return report;
    ctx.settings.update(useFolderPatch(ctx.settings.get(), role, report.path, dtype, device));
    await ctx.engines.reset();
    ctx.events.emit({ type: 'models.changed' });
    return report;
  };

  ctx.jobs.register<{ role: ModelRole; repo: string; dtype: OnnxDtype }>(
    DOWNLOAD_JOB,
    async (params, job) => {
      const dest = path.join(ctx.paths.modelsDir, params.repo.replace(/[^A-Za-z0-9._-]+/g, '__'));
      // Files already complete are skipped and partial ones resumed, so a resumed job continues where it stopped.
      const result = await downloadModel({
        repo: params.repo,
        dtype: params.dtype,
        dest,
        signal: job.signal,
        onProgress: (p) =>
          job.report({
            done: p.bytes,
            total: p.total,
            message: `${p.file} (${p.fileIndex + 1}/${p.fileCount})`,
          }),
      });
      const report = await addFolder(params.role, result.dest, params.dtype);
      return { dest: result.dest, files: result.files.length, verify: report };
    },
  );

  ctx.jobs.register<Record<string, never>>(INDEX_JOB, async (_params, job) => {
    const embedder = await ctx.engines.embedder();
    if (!embedder)
      throw new CuratorError('INVALID_ARGUMENT', 'The recall is lexical: choose a vector engine first');
    const dtype = ctx.settings.get().models.embedder.dtype;
    const report = await buildVectorIndex({ db: ctx.db, dtype }, embedder, job);
    if (report.cancelled) return report;
    // The fast preset's skill side (c_k, p_k, e_k) is embedded with the index, so selections embed only the task.
    const skillSide = await updateSkillSide(ctx.db, embedder, {
      dtype,
      signal: job.signal,
      onProgress: (done, total) =>
        job.report({ done, total, message: `Embedding skill documents and states: ${done} of ${total}` }),
    });
    return { ...report, skillSide, cancelled: skillSide.cancelled };
  });
  skillSideRefresher(ctx);

  return {
    'models.status': async () => ctx.engines.status(),
    'models.verify': async (req) => ctx.engines.verifyModel(path.resolve(req.path), checkRole(req.role)),
    'models.add': async (req) => addFolder(checkRole(req.role), req.path, req.dtype, req.device),
    'models.download': async (req) => {
      const role = checkRole(req.role);
      return ctx.jobs.start(DOWNLOAD_JOB, {
        role,
        repo: req.repo ?? publishedModels[role].repo,
        dtype: (req.dtype ?? 'q8') as OnnxDtype,
      });
    },
    'index.status': async (): Promise<IndexStatus> => {
      const settings = ctx.settings.get();
      const embedder = settings.engines.embedder === 'lexical' ? null : await ctx.engines.embedder();
      const s = vectorIndexStatus(
        ctx.db,
        embedder ? { id: embedder.id, dtype: settings.models.embedder.dtype } : undefined,
      );
      const side = embedder ? skillSideCoverage(ctx.db, embedder.id, settings.models.embedder.dtype) : null;
      return {
        ...(side !== null ? { skillSide: { current: Math.round(side * s.skills), skills: s.skills } } : {}),
        modelId: s.modelId,
        dim: s.dim,
        vectors: s.indexed,
        skills: s.skills,
        missing: s.pending,
        stale: embedder ? s.stale || s.pending > 0 : false,
        ...(embedder
          ? s.staleReason
            ? { staleReason: s.staleReason }
            : s.pending > 0
              ? { staleReason: `${s.pending} skills have no current vector` }
              : {}
          : { staleReason: 'The recall is lexical (BM25); no vector index is used' }),
      };
    },
    'index.build': async () => {
      if (ctx.settings.get().engines.embedder === 'lexical') {
        throw new CuratorError(
          'INVALID_ARGUMENT',
          'The recall is lexical (BM25) and needs no index; add an embedder model or a remote embeddings endpoint first',
        );
      }
      return ctx.jobs.start(INDEX_JOB, {});
    },
  };
}
