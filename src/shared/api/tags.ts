// Tags on skills, and actions on a selection of skills (the Library's bulk bar).
import type { BulkChange } from './bulk';
import type { SkillStates } from './llm';

export interface TagCount {
  tag: string;
  /** Skills that carry it. */
  skills: number;
}

export interface VerifyManyResult {
  /** Skills verified now (already verified and unchanged ones are not counted). */
  verified: number[];
  /** Skills already verified, left as they were. */
  alreadyVerified: number[];
  /** Skills with no states to verify (unparsed, or failed without earlier states), left as they were. */
  skipped: { skillId: number; status: SkillStates['status'] }[];
}

export interface TagsApi {
  'tags.list'(req: Record<string, never>): Promise<TagCount[]>;
  /** The tags of each skill asked about (skills without tags get []). */
  'tags.of'(req: { skillIds: number[] }): Promise<Record<number, string[]>>;
  /**
   * Tags are trimmed and lower-cased; `added` counts (skill, tag) pairs that were not there before. `bulk` (the
   * Library's bulk Tag) records the pairs it added as a bulk change, which `bulk.undo` takes back.
   */
  'tags.add'(req: {
    skillIds: number[];
    tags: string[];
    bulk?: boolean;
  }): Promise<{ added: number; change?: BulkChange | null }>;
  'tags.remove'(req: {
    skillIds: number[];
    tags: string[];
    bulk?: boolean;
  }): Promise<{ removed: number; change?: BulkChange | null }>;
  /**
   * Verifies the skills' states in one transaction; each verify goes to the skill's history (undo: states.revert).
   * Refused as a whole (CONFLICT, `details.auditFindings`) when one to verify has unsuppressed high or critical audit
   * findings, unless `acknowledgeAudit`. Recorded as a bulk change (`change`, null when nothing was verified), which
   * `bulk.undo` takes back.
   */
  'states.verifyMany'(req: {
    skillIds: number[];
    acknowledgeAudit?: boolean;
  }): Promise<VerifyManyResult & { change: BulkChange | null }>;
  /** Undoes verifyMany: puts back each skill's states as they were before its last verify, in one transaction. */
  'states.unverifyMany'(req: { skillIds: number[] }): Promise<{ reverted: number[] }>;
}

export const tagsMethods = [
  'tags.list',
  'tags.of',
  'tags.add',
  'tags.remove',
  'states.verifyMany',
  'states.unverifyMany',
] as const;
