// Which skills the MCP server may serve (the curator's rule: all, the verified ones, or a profile's), as a library
// filter applied to search, recall and reads, and as the sentence every tool description states. "Verified" means
// the content that was verified: a skill changed in its source since is withheld until a curator verifies it again.
import { CuratorError } from '../shared/errors';
import type { GateRefusal } from '../core/audit/audit-gate';
import type { SkillFilter } from '../core/store/library-filter';
import type { ProfileSource } from './profile-source';

export type AllowRule = { kind: 'all' } | { kind: 'verified' } | { kind: 'profile'; name: string };

export interface AllowedSkills {
  rule: AllowRule;
  /** One sentence for tool descriptions and answers; made only of the rule, never of skill text. */
  sentence: string;
  /** The library filter that keeps only allowed skills, read at each call (a profile can change). */
  filter(): Promise<SkillFilter>;
  /** Why the audit gate refuses this skill now (auditing it first when its audit is missing or stale); [] if not. */
  refusals(skillId: number): Promise<GateRefusal[]>;
}

/** The audit gate as the server sees it: the skills refused on their stored audits, and one skill checked fully. */
export interface AuditGateView {
  withheld(): number[];
  refusals(skillIds: readonly number[]): Promise<GateRefusal[]>;
}

const noGate: AuditGateView = { withheld: () => [], refusals: async () => [] };

function ruleSentence(rule: AllowRule): string {
  switch (rule.kind) {
    case 'all':
      return 'This server serves every skill in the curated library.';
    case 'verified':
      return 'This server serves only skills whose states a curator has verified, as they were verified; other skills are not searched, selected or read.';
    case 'profile':
      return `This server serves only the skills of the curator's profile "${rule.name}"; other skills are not searched, selected or read.`;
  }
}

export function parseAllowRule(allow: string | undefined, profile: string | undefined): AllowRule {
  if (profile !== undefined) {
    if (allow !== undefined)
      throw new CuratorError('INVALID_ARGUMENT', 'Give either --allow or --profile, not both');
    if (profile.trim() === '') throw new CuratorError('INVALID_ARGUMENT', 'Name the profile to serve');
    return { kind: 'profile', name: profile };
  }
  const kind = allow ?? 'verified';
  if (kind !== 'all' && kind !== 'verified')
    throw new CuratorError('INVALID_ARGUMENT', `Unknown --allow "${kind}"; use all or verified`);
  return { kind };
}

export function allowedSkills(
  rule: AllowRule,
  profiles: ProfileSource,
  gate: AuditGateView = noGate,
): AllowedSkills {
  const ruleFilter = async (): Promise<SkillFilter> => {
    if (rule.kind === 'all') return {};
    if (rule.kind === 'verified') return { status: 'verified', verifiedAsIs: true };
    return { skillIds: await profiles.skillIds(rule.name) };
  };
  const filter = async (): Promise<SkillFilter> => {
    const withheld = gate.withheld();
    return { ...(await ruleFilter()), ...(withheld.length > 0 ? { excludeSkillIds: withheld } : {}) };
  };
  return {
    rule,
    sentence:
      gate === noGate
        ? ruleSentence(rule)
        : `${ruleSentence(rule)} Skills the curator's audit refuses are withheld.`,
    filter,
    refusals: (skillId) => gate.refusals([skillId]),
  };
}

/**
 * The answer for a name the server does not serve, the same whether the library holds no such skill or holds one
 * outside the rule: an agent learns nothing about what is kept from it.
 */
export const notServed = (name: string, allowed: AllowedSkills): CuratorError =>
  new CuratorError('NOT_FOUND', `No skill "${name}" is served here. ${allowed.sentence}`);
