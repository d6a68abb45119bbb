// Model folders: choose dtype and device, verify a folder, download the published exports.
export * from './dtype-device';
export { verifyModelFolder } from './verify-folder';
export { addDerivedModel } from './derived-model';
export { publishedModels, filesForDtype, type HubFile, type PublishedModel } from './catalog';
export {
  downloadModel,
  listHubFiles,
  HF_HUB_URL,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadResult,
} from './download';
