// Audit: what a static reading of every file of a skill finds that an agent should not be handed (prompt injection,
// secrets leaving the machine, remote code, destruction, persistence, privilege, obfuscation, supply chain, wide
// permissions), and where the skill breaks the Agent Skills spec or the chosen agent's rules.
import type { JobInfo } from '../jobs';

export const severities = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof severities)[number];

export const auditCategories = [
  'prompt-injection',
  'exfiltration',
  'remote-code-execution',
  'destructive',
  'persistence',
  'privilege-escalation',
  'obfuscation',
  'supply-chain',
  'permissions',
  'spec',
  'routing',
  'unaudited',
] as const;
export type AuditCategory = (typeof auditCategories)[number];

/** Whose rules the spec lint applies: the Agent Skills spec, Claude Code's extensions, claude.ai / the Skills API. */
export const specProfiles = ['agentskills', 'claude-code', 'claude-api'] as const;
export type SpecProfile = (typeof specProfiles)[number];

export interface AuditRuleInfo {
  id: string;
  category: AuditCategory;
  /** The severity it reports at most (some rules report less in prose than in a script). */
  severity: Severity;
  title: string;
  /** One plain sentence: why it matters and what to do. */
  why: string;
}

export interface AuditFinding {
  ruleId: string;
  category: AuditCategory;
  severity: Severity;
  /** The file inside the package (SKILL.md, scripts/x.sh). */
  file: string;
  /** 1-based; null for what has no line (a binary file, the front matter as a whole). */
  line: number | null;
  /** The matched text as written (a line, at most 200 characters). */
  excerpt: string;
  why: string;
  /** How it was seen when the text hides it: "after decoding base64", "after joining a line continuation"… */
  seenAfter?: string;
}

export function severityRank(s: Severity): number {
  return severities.indexOf(s);
}

export function worstSeverity(findings: readonly { severity: Severity }[]): Severity | null {
  let worst: Severity | null = null;
  for (const f of findings)
    if (worst === null || severityRank(f.severity) > severityRank(worst)) worst = f.severity;
  return worst;
}

export type SuppressionScope = 'finding' | 'skill-rule' | 'rule';

export interface AuditSuppression {
  id: number;
  scope: SuppressionScope;
  ruleId: string;
  /** null for a rule suppressed library-wide. */
  skillId: number | null;
  reason: string;
  createdAt: string;
}

export interface StoredFinding extends AuditFinding {
  id: number;
  skillId: number;
  /** The suppression that holds for it now, or null. */
  suppressed: AuditSuppression | null;
  /** A suppression made on other content of this file or skill: back for review. */
  suppressionToReview: AuditSuppression | null;
  /** The LLM's second opinion on this finding and file content (audit.review), if asked; it never suppresses. */
  review?: AuditLlmReview;
}

export interface AuditLlmReview {
  /** null when the answer could not be read (see error). */
  verdict: 'confirm' | 'likely-benign' | null;
  reason: string;
  error: string | null;
  model: string;
  reviewedAt: string;
}

export interface AuditReviewResult {
  reviewed: number;
  confirmed: number;
  likelyBenign: number;
  /** Answers that were malformed or did not come (the endpoint's error is stored with the finding). */
  failed: number;
}

export interface SkillAudit {
  skillId: number;
  name: string;
  /** null: never audited. */
  auditedAt: string | null;
  /** The skill changed since its audit (the next audit job redoes it). */
  stale: boolean;
  profile: SpecProfile | null;
  findings: StoredFinding[];
  /** The worst severity of the findings no suppression holds for; null when none. */
  worst: Severity | null;
}

export interface AuditSkillSummary {
  skillId: number;
  name: string;
  worst: Severity | null;
  /** Unsuppressed findings per severity. */
  counts: Record<Severity, number>;
  suppressed: number;
  toReview: number;
}

export interface AuditRunRequest {
  /** Only these skills; default: every skill whose audit is missing or older than its content or the rules. */
  skillIds?: number[];
  /** Audit again even when nothing changed. */
  force?: boolean;
  profile?: SpecProfile;
}

export type AuditReportFormat = 'sarif' | 'json' | 'md';

export interface AuditApi {
  /** Starts the audit job (cancellable, with progress); its result counts the skills audited and their findings. */
  'audit.run'(req: AuditRunRequest): Promise<JobInfo>;
  'audit.skill'(req: { skillId: number }): Promise<SkillAudit>;
  /** Skills with unsuppressed findings at or above minSeverity (default low), worst first. */
  'audit.list'(req: {
    minSeverity?: Severity;
    limit?: number;
    offset?: number;
  }): Promise<{ total: number; items: AuditSkillSummary[]; unaudited: number }>;
  'audit.suppress'(req: {
    findingId: number;
    scope: SuppressionScope;
    reason: string;
  }): Promise<AuditSuppression>;
  'audit.unsuppress'(req: { suppressionId: number }): Promise<{ removed: boolean }>;
  'audit.rules'(req: Record<string, never>): Promise<AuditRuleInfo[]>;
  /**
   * Starts the LLM review job: a second opinion (confirm / likely benign, with a reason) on each unsuppressed high or
   * critical finding of the skills (default: all), through the configured endpoint; stored answers are reused unless
   * force. It never suppresses a finding.
   */
  'audit.review'(req: { skillIds?: number[]; force?: boolean }): Promise<JobInfo>;
  /** SARIF 2.1.0, JSON or Markdown of the stored audit; with `path` the core writes it there. */
  'audit.report'(req: {
    skillIds?: number[];
    format: AuditReportFormat;
    minSeverity?: Severity;
    path?: string;
    overwrite?: boolean;
  }): Promise<{ fileName: string; text: string; path?: string }>;
}

export const auditMethods = [
  'audit.run',
  'audit.skill',
  'audit.list',
  'audit.suppress',
  'audit.unsuppress',
  'audit.rules',
  'audit.review',
  'audit.report',
] as const;
