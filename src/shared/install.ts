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
  mode: InstallMode;
  dryRun: boolean;
  /** Which set the install belongs to in the lock file: "profile:NAME" or "skills". */
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
