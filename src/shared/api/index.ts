// The one API contract: every host (Electron IPC, HTTP, CLI) exposes exactly these methods.
import type { AuditApi } from './audit';
import { auditMethods } from './audit';
import type { BulkApi } from './bulk';
import { bulkMethods } from './bulk';
import type { EvaluationApi } from './evaluation';
import { evaluationMethods } from './evaluation';
import type { JobsApi } from './jobs';
import { jobsMethods } from './jobs';
import type { LibraryApi } from './library';
import { libraryMethods } from './library';
import type { LlmApi } from './llm';
import { llmMethods } from './llm';
import type { ModelsApi } from './models';
import { modelsMethods } from './models';
import type { ProfilesApi } from './profiles';
import { profilesMethods } from './profiles';
import type { SelectApi } from './select';
import { selectMethods } from './select';
import type { SettingsApi } from './settings';
import { settingsMethods } from './settings';
import type { SourcesApi } from './sources';
import { sourcesMethods } from './sources';
import type { TagsApi } from './tags';
import { tagsMethods } from './tags';
import type { UsageApi } from './usage';
import { usageMethods } from './usage';

export type CuratorApi = LibraryApi &
  JobsApi &
  ModelsApi &
  LlmApi &
  SelectApi &
  EvaluationApi &
  SettingsApi &
  SourcesApi &
  ProfilesApi &
  TagsApi &
  BulkApi &
  UsageApi &
  AuditApi;
export type ApiMethod = keyof CuratorApi;
export type ApiRequest<M extends ApiMethod> = Parameters<CuratorApi[M]>[0];
export type ApiResponse<M extends ApiMethod> = Awaited<ReturnType<CuratorApi[M]>>;

export const apiMethods = [
  ...libraryMethods,
  ...jobsMethods,
  ...modelsMethods,
  ...llmMethods,
  ...selectMethods,
  ...evaluationMethods,
  ...settingsMethods,
  ...sourcesMethods,
  ...profilesMethods,
  ...tagsMethods,
  ...bulkMethods,
  ...usageMethods,
  ...auditMethods,
] as const satisfies readonly ApiMethod[];

// A method in the contract but missing from the list fails to compile here, so no host can forget it.
type UnlistedMethods = Exclude<ApiMethod, (typeof apiMethods)[number]>;
const everyMethodListed: [UnlistedMethods] extends [never] ? true : UnlistedMethods = true;
void everyMethodListed;

export function isApiMethod(name: string): name is ApiMethod {
  return (apiMethods as readonly string[]).includes(name);
}

export * from './audit';
export * from './bulk';
export * from './evaluation';
export * from './jobs';
export * from './library';
export * from './llm';
export * from './models';
export * from './profiles';
export * from './select';
export * from './settings';
export * from './sources';
export * from './tags';
export * from './usage';
