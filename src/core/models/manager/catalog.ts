// The published ONNX exports the app can download, and which files of a hub repository one dtype needs.
import type { ModelRole } from '../../../shared/api/models';
import { publishedModelInfo } from '../../../shared/published-models';
import { onnxFileForDtype, type OnnxDtype } from './dtype-device';

export interface PublishedModel {
  role: ModelRole;
  repo: string;
  /** Model id recorded with vectors and scores. */
  id: string;
}

export const publishedModels: Record<ModelRole, PublishedModel> = {
  embedder: { role: 'embedder', ...publishedModelInfo.embedder },
  reranker: { role: 'reranker', ...publishedModelInfo.reranker },
};

export interface HubFile {
  path: string;
  size: number;
  /** sha256 of the content for files stored in LFS (the hub's `lfs.oid`). */
  sha256?: string;
}

const alwaysNeeded = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const optional = ['generation_config.json', 'special_tokens_map.json', 'vocab.json', 'merges.txt'];

/** The files to fetch for one dtype: config, tokenizer, the weights file and its external data (`_data`, `_data_1`...). */
export function filesForDtype(tree: HubFile[], dtype: OnnxDtype): { files: HubFile[]; missing: string[] } {
  const weights = onnxFileForDtype(dtype);
  const wanted = (p: string) =>
    alwaysNeeded.includes(p) || optional.includes(p) || p === weights || p.startsWith(`${weights}_data`);
  const files = tree.filter((f) => wanted(f.path));
  const missing = [...alwaysNeeded, weights].filter((p) => !files.some((f) => f.path === p));
  return { files, missing };
}
