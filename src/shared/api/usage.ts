// What agents used of the library over MCP: per skill, how often it was offered, selected and read, over a period
// and per served profile; the skills of a served profile no agent selected or read; the calls behind each figure.

/** How a call used a skill: offered (a search hit, a skills/get entry), selected (a select_skills answer), read (a file read). */
export const usageRoles = ['offered', 'selected', 'read'] as const;
export type UsageRole = (typeof usageRoles)[number];

/** The MCP requests that are recorded. skills/list is counted as a call; it offers every served skill at once. */
export const usageTools = [
  'search_skills',
  'select_skills',
  'read_skill',
  'skills/list',
  'skills/get',
  'resources/read',
] as const;
export type UsageTool = (typeof usageTools)[number];

export interface UsageQuery {
  /** ISO date or time; calls at or after it. Unset: since the oldest kept call. */
  from?: string;
  /** ISO date or time; calls before it (a date means the end of that day). Unset: up to now. */
  to?: string;
  /** Only calls served under this profile (`mcp --profile NAME`). */
  profile?: string;
}

export interface UsageSkillRow {
  skillId: number;
  /** The library's current name, or the name it had when used if it is no longer in the library. */
  name: string;
  inLibrary: boolean;
  offered: number;
  selected: number;
  read: number;
  lastUsedAt: string;
}

export interface NeverUsedSkills {
  profile: string;
  /** The profile's skills now that no call served under it selected or read in the period. */
  skills: { skillId: number; name: string }[];
  /** The profile's size now. */
  of: number;
}

export interface UsageSummary {
  from: string | null;
  to: string | null;
  profile: string | null;
  calls: number;
  byTool: { tool: UsageTool; calls: number }[];
  clients: { client: string; calls: number }[];
  /** Profiles calls were served under in the period (for the picker), most calls first. */
  servedProfiles: string[];
  /** Skills any call used, most selected first. */
  skills: UsageSkillRow[];
  /** For the chosen profile, or else for each profile served in the period. */
  neverUsed: NeverUsedSkills[];
  /** Calls older than this many days are deleted; 0: nothing is recorded. */
  retentionDays: number;
  oldestCallAt: string | null;
}

export interface UsageCall {
  id: number;
  at: string;
  tool: UsageTool;
  query: string | null;
  client: string | null;
  rule: 'all' | 'verified' | 'profile';
  profile: string | null;
  /** The selection run (select_skills), to open in the lab; null once the run is deleted. */
  runId: number | null;
  skills: { skillId: number; name: string; role: UsageRole; path: string | null }[];
}

export interface UsageCallsQuery extends UsageQuery {
  /** Only calls that used this skill (in the given role, if any). */
  skillId?: number;
  role?: UsageRole;
  limit?: number;
  offset?: number;
}

export interface UsageApi {
  'usage.summary'(req: UsageQuery): Promise<UsageSummary>;
  /** Newest first. */
  'usage.calls'(req: UsageCallsQuery): Promise<{ total: number; items: UsageCall[] }>;
  /**
   * `skills`: one row per skill (the summary's figures); `calls`: one row per (call, skill) of the period. With
   * `path` the core writes the file there (refusing to replace one unless `overwrite`) and says where.
   */
  'usage.csv'(
    req: UsageQuery & { kind: 'skills' | 'calls'; path?: string; overwrite?: boolean },
  ): Promise<{ fileName: string; text: string; path?: string }>;
}

export const usageMethods = ['usage.summary', 'usage.calls', 'usage.csv'] as const;
