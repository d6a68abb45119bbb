// Profiles (named sets of skills) and installing skills into agent folders, with the context-budget preview.
import type {
  BudgetPreview,
  BudgetRequest,
  InstalledEntry,
  InstallRequest,
  InstallResult,
  InstallTargetKind,
  InstallVerifyRequest,
  InstallVerifyResult,
  SkillOverridesPreview,
  SkillOverridesRequest,
  SkillOverridesWriteRequest,
  SkillOverridesWriteResult,
  UninstallRequest,
  UninstallResult,
} from '../install';
import type { ProfileCreateRequest, ProfileDetail, ProfileSummary, ProfileUpdateRequest } from '../profiles';

export type * from '../install';
export type * from '../profiles';

export interface ProfilesApi {
  'profiles.list'(req: Record<string, never>): Promise<ProfileSummary[]>;
  'profiles.get'(req: { name: string }): Promise<ProfileDetail>;
  /** notFound: names in a run's answer the library no longer has. */
  'profiles.create'(req: ProfileCreateRequest): Promise<{ profile: ProfileDetail; notFound: string[] }>;
  'profiles.update'(req: ProfileUpdateRequest): Promise<ProfileDetail>;
  'profiles.add'(req: { name: string; skillIds: number[] }): Promise<ProfileDetail>;
  'profiles.remove'(req: { name: string; skillIds: number[] }): Promise<ProfileDetail>;
  'profiles.delete'(req: { name: string }): Promise<{ deleted: string }>;
  /** The folder each known target stands for on this machine. */
  'install.targets'(req: { projectDir?: string }): Promise<{ target: InstallTargetKind; dir: string }[]>;
  'install.run'(req: InstallRequest): Promise<InstallResult>;
  'install.uninstall'(req: UninstallRequest): Promise<UninstallResult>;
  /** What the target's lock file says this library installed there. */
  'install.list'(req: {
    target: string;
    projectDir?: string;
  }): Promise<{ targetDir: string; entries: InstalledEntry[] }>;
  'install.budget'(req: BudgetRequest): Promise<BudgetPreview>;
  /** Drift between the target folder and its lock file, and whether the library moved on; changes nothing. */
  'install.verify'(req: InstallVerifyRequest): Promise<InstallVerifyResult>;
  /** Claude Code skillOverrides for the entries the budget cuts: what would change in the settings file. */
  'install.overrides'(req: SkillOverridesRequest): Promise<SkillOverridesPreview>;
  /** Writes them, replacing only the entries Skill Curator wrote before. */
  'install.writeOverrides'(req: SkillOverridesWriteRequest): Promise<SkillOverridesWriteResult>;
}

export const profilesMethods = [
  'profiles.list',
  'profiles.get',
  'profiles.create',
  'profiles.update',
  'profiles.add',
  'profiles.remove',
  'profiles.delete',
  'install.targets',
  'install.run',
  'install.uninstall',
  'install.list',
  'install.budget',
  'install.verify',
  'install.overrides',
  'install.writeOverrides',
] as const;
