// Installing skills into an agent's skills folder, and what the agent will see of them (the context-budget preview).

/** A known agent folder, or any folder given by path. */
export type InstallTargetKind = 'claude' | 'claude-project' | 'codex' | 'agents';
export type InstallMode = 'symlink' | 'copy';

export interface InstallSelection {
  /** A profile's skills… */
  profile?: string;
  /** …or these library ids (a selection's answer). */
  skillIds?: number[];
}

export interface InstallRequest extends InstallSelection {
  /** A known target or an absolute folder path. */
  target: InstallTargetKind | string;
  mode?: InstallMode;
  dryRun?: boolean;
  /** The project folder for claude-project and agents (default: the host's working folder). */
  projectDir?: string;
  /**
   * Install exactly what the target's lock file names (its skills, modes and content digests), or refuse and write
   * nothing. With a profile or skills, only that set, which must be the set the lock names.
   */
  frozen?: boolean;
}

export type InstallAction = 'add' | 'update' | 'unchanged' | 'remove' | 'clash';

export interface InstallChange {
  folder: string;
  skill: string;
  skillId: number | null;
  action: InstallAction;
  /** Why a clash is left alone, or what changed in an update. */
  reason?: string;
}

export interface InstallResult {
  targetDir: string;
  lockFile: string;
  /** 'as locked' for a frozen install, whose entries keep the mode each was locked with. */
  mode: InstallMode | 'as locked';
  dryRun: boolean;
  frozen: boolean;
  /** Which set the install belongs to in the lock file: "profile:NAME" or "skills" (a frozen install: every set). */
  set: string;
  changes: InstallChange[];
  /** Package files that could not be written (see export). */
  missing: { name: string; file: string; reason: string }[];
}

export interface UninstallRequest {
  target: InstallTargetKind | string;
  /** Only this set's skills ("profile:NAME", or a profile name); all the lock file lists when absent. */
  profile?: string;
  dryRun?: boolean;
  projectDir?: string;
}

export interface UninstallResult {
  targetDir: string;
  dryRun: boolean;
  removed: string[];
  /** Folders left in place, with why (files that are not ours, or changed since install). */
  kept: { folder: string; reason: string }[];
}

export interface InstalledEntry {
  folder: string;
  skill: string;
  skillId: number;
  contentHash: string;
  mode: InstallMode;
  set: string;
  installedAt: string;
}

export interface BudgetRequest extends InstallSelection {
  /** Which agent's listing to preview (default claude). */
  agent?: 'claude' | 'codex' | 'agents';
  /** Context window in tokens (default 200,000). */
  contextTokens?: number;
  /** Share of the context the listing may use (default 0.01). */
  budgetFraction?: number;
  /** A fixed budget in characters instead of the fraction (e.g. SLASH_COMMAND_TOOL_CHAR_BUDGET). */
  budgetChars?: number;
  /** Characters per entry before it is cut (default 1,536). */
  maxEntryChars?: number;
  /** Where the skills will be installed, for the <location> lines. */
  target?: InstallTargetKind | string;
  projectDir?: string;
}

export interface BudgetEntry {
  name: string;
  skillId: number;
  /** Characters of name and description before any cut. */
  chars: number;
  /** Characters the agent is shown. */
  shownChars: number;
  fate: 'full' | 'cut' | 'name-only' | 'dropped';
}

export interface BudgetPreview {
  agent: string;
  budgetChars: number;
  maxEntryChars: number;
  /** Characters of the listing with nothing cut. */
  fullChars: number;
  /** Characters of the listing the agent gets. */
  usedChars: number;
  entries: BudgetEntry[];
  /** The listing text itself, as the agent gets it. */
  text: string;
}

export interface InstallVerifyRequest {
  target: InstallTargetKind | string;
  projectDir?: string;
}

export interface VerifiedEntry {
  folder: string;
  skill: string;
  skillId: number;
  set: string;
  mode: InstallMode;
  /** Files whose bytes differ from the sha256 the lock pins (or that are no longer regular files). */
  changed: string[];
  /** Files the lock lists that are gone; the whole folder when folderMissing. */
  missing: string[];
  /** Files and folders in the entry's folder that the lock does not list. */
  extra: string[];
  folderMissing: boolean;
  /** Why the entry could not be read without leaving the target (a link pointing elsewhere…); drift too. */
  problem: string | null;
  /** The library's skill now: at the pinned content ('same'), changed since ('moved-on'), or no longer there. */
  library: 'same' | 'moved-on' | 'gone';
  drift: boolean;
}

export interface InstallVerifyResult {
  targetDir: string;
  lockFile: string;
  /** False when the target has no lock file. */
  locked: boolean;
  /** No entry drifted from the lock (the library moving on is reported, but is not drift in the target). */
  clean: boolean;
  entries: VerifiedEntry[];
  /** Folders in the target that the lock does not list: not drift, just not Skill Curator's. */
  unmanaged: string[];
}

/** Claude Code's skillOverrides values: "on" is the default, so Skill Curator writes no entry for it. */
export type SkillOverrideMode = 'on' | 'name-only' | 'user-invocable-only' | 'off';
export const skillOverrideModes: readonly SkillOverrideMode[] = [
  'on',
  'name-only',
  'user-invocable-only',
  'off',
];

/** Which Claude Code settings file: <project>/.claude/settings.json, settings.local.json, or ~/.claude/settings.json. */
export type ClaudeSettingsScope = 'project' | 'local' | 'user';

export interface SkillOverridesRequest extends BudgetRequest {
  /** Default: project for the claude-project target, user otherwise. */
  settings?: ClaudeSettingsScope;
  /** The mode chosen per skill name, instead of the default for its fate. */
  modes?: Record<string, SkillOverrideMode>;
}

export interface SkillOverridesWriteRequest extends SkillOverridesRequest {
  /** The digest a preview answered with: the write is refused if the file changed since. */
  expectDigest?: string | null;
}

export type SkillOverrideAction = 'add' | 'change' | 'remove' | 'unchanged' | 'kept';

export interface SkillOverrideChange {
  skill: string;
  skillId: number | null;
  /** What the budget does to the entry without overrides; null for an entry written before that the set no longer holds. */
  fate: BudgetEntry['fate'] | null;
  /** The mode Skill Curator proposes (the default for the fate, or the one chosen); 'on' means no entry. */
  proposed: SkillOverrideMode;
  /** The value in the settings file now, if any. */
  current: string | null;
  /** add/change/remove: Skill Curator's own entry; kept: a value set by hand, left as it is. */
  action: SkillOverrideAction;
  note?: string;
}

export interface SkillOverridesPreview {
  settingsFile: string;
  scope: ClaudeSettingsScope;
  /** sha256 of the file as read (null when it does not exist yet). */
  digest: string | null;
  set: string;
  changes: SkillOverrideChange[];
  /** A unified diff of the settings file, empty when nothing would change. */
  diff: string;
  /** Whether writing would change the file. */
  changed: boolean;
}

export interface SkillOverridesWriteResult extends SkillOverridesPreview {
  written: boolean;
}
