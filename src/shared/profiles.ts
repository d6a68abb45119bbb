// Profiles: named sets of skills, as the core stores them and every host shows them.
import type { ReviewStatus } from './api/library';

/** Which skills a filter profile takes from the library; every field given must match. */
export interface ProfileFilter {
  sourceId?: number;
  status?: ReviewStatus;
  hasErrors?: boolean;
  hasWarnings?: boolean;
  /** Case-insensitive part of the skill name. */
  nameContains?: string;
}

export type ProfileOriginKind = 'manual' | 'filter' | 'selection-run' | 'eval-run';

export interface ProfileOrigin {
  kind: ProfileOriginKind;
  /** The selection run or evaluation run the profile was made from. */
  id: number | null;
  note: string | null;
}

export interface ProfileSummary {
  id: number;
  name: string;
  description: string;
  filter: ProfileFilter | null;
  origin: ProfileOrigin;
  skillCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProfileMember {
  id: number;
  name: string;
  description: string;
  /** 'hand': added by hand (or from a run); 'filter': matches the profile's filter. */
  via: 'hand' | 'filter';
}

export interface ProfileDetail extends ProfileSummary {
  skills: ProfileMember[];
  /** Filter matches removed by hand. */
  excluded: { id: number; name: string }[];
}

export interface ProfileCreateRequest {
  name: string;
  description?: string;
  skillIds?: number[];
  filter?: ProfileFilter;
  /** Take the answer of a stored selection run. */
  fromRun?: number;
  /** Take the answers of an evaluation run (every item; only one variant, and one k, when given). */
  fromEval?: { runId: number; variant?: string; k?: number };
}

export interface ProfileUpdateRequest {
  name: string;
  rename?: string;
  description?: string;
  /** null turns a filter profile into a hand-made one (its current matches stay, as hand-added members). */
  filter?: ProfileFilter | null;
}
