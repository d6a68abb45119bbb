// What an agent sees of a set of skills before any is used: the list of names and descriptions in its system prompt,
// cut to the agent's budget.
//
// Format: the Agent Skills integration guide's catalogue, one <skill> with <name>, <description> and <location> per
// skill inside <available_skills> (https://agentskills.io/integrate-skills, "Injecting into context").
// Budget: Claude Code caps each entry at 1,536 characters and the whole listing at 1% of the context window (8,000
// characters when the window is unknown); skills past the budget lose their description and, when even the names do
// not fit, are dropped ("N descriptions dropped ... raise skillListingBudgetFraction"; SLASH_COMMAND_TOOL_CHAR_BUDGET
// sets a fixed budget) — https://claudecodeguides.com/claude-skills-performance-optimization/ and
// https://claudefa.st/blog/guide/mechanics/skill-listing-budget. Codex and generic Agent Skills clients publish no
// budget; the same defaults apply there and every figure is settable.
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { BudgetEntry, BudgetPreview, BudgetRequest } from '../../shared/install';
import { safeFolderName } from '../export';
import type { InstallContext } from './install';
import { selectionOf } from './selection';
import { resolveTargetDir, type TargetPlaces } from './targets';

export const budgetDefaults = {
  contextTokens: 200_000,
  budgetFraction: 0.01,
  charsPerToken: 4,
  maxEntryChars: 1536,
};

const agentTarget = { claude: 'claude', codex: 'codex', agents: 'agents' } as const;

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface ListingSkill {
  id: number;
  name: string;
  description: string;
  location: string;
}

function positive(value: number | undefined, name: string, fallback: number, max = Infinity): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `${name} must be a number above 0${max < Infinity ? ` and at most ${max}` : ''}`,
    );
  return value;
}

/** The listing for these skills under this budget: pure, so the rule can be tested on its own. */
export function budgetListing(
  skills: readonly ListingSkill[],
  opts: { agent: string; budgetChars: number; maxEntryChars: number },
): BudgetPreview {
  const open = '<available_skills>\n';
  const close = '</available_skills>';
  const nameOnly = (s: ListingSkill): string =>
    `  <skill>\n    <name>${escapeXml(s.name)}</name>\n    <location>${escapeXml(s.location)}</location>\n  </skill>\n`;
  const withText = (s: ListingSkill, description: string): string =>
    `  <skill>\n    <name>${escapeXml(s.name)}</name>\n    <description>${escapeXml(description)}</description>\n    <location>${escapeXml(s.location)}</location>\n  </skill>\n`;
  // The entry's size is what the agent counts: the name and the description.
  const entries: BudgetEntry[] = skills.map((s) => {
    const chars = s.name.length + s.description.length;
    const cut = chars > opts.maxEntryChars;
    return {
      name: s.name,
      skillId: s.id,
      chars,
      shownChars: Math.min(chars, opts.maxEntryChars),
      fate: cut ? 'cut' : 'full',
    };
  });
  const shownDescription = (i: number): string =>
    skills[i]!.description.slice(0, Math.max(0, entries[i]!.shownChars - skills[i]!.name.length));
  let used = entries.reduce((sum, e) => sum + e.shownChars, 0);
  const fullChars = entries.reduce((sum, e) => sum + e.chars, 0);
  // Over budget: the last entries lose their description first, then, if names alone still overflow, go entirely.
  for (let i = entries.length - 1; i >= 0 && used > opts.budgetChars; i--) {
    used -= entries[i]!.shownChars - skills[i]!.name.length;
    entries[i]!.shownChars = skills[i]!.name.length;
    entries[i]!.fate = 'name-only';
  }
  for (let i = entries.length - 1; i >= 0 && used > opts.budgetChars; i--) {
    used -= entries[i]!.shownChars;
    entries[i]!.shownChars = 0;
    entries[i]!.fate = 'dropped';
  }
  let text = open;
  skills.forEach((s, i) => {
    const fate = entries[i]!.fate;
    if (fate === 'dropped') return;
    text += fate === 'name-only' ? nameOnly(s) : withText(s, shownDescription(i));
  });
  text += close + '\n';
  return {
    agent: opts.agent,
    budgetChars: opts.budgetChars,
    maxEntryChars: opts.maxEntryChars,
    fullChars,
    usedChars: used,
    entries,
    text,
  };
}

export function previewBudget(
  ctx: InstallContext,
  req: BudgetRequest,
  places: TargetPlaces = {},
): BudgetPreview {
  const agent = req.agent ?? 'claude';
  if (!(agent in agentTarget))
    throw new CuratorError('INVALID_ARGUMENT', `Unknown agent "${agent}": claude, codex or agents`);
  const contextTokens = positive(req.contextTokens, 'contextTokens', budgetDefaults.contextTokens);
  const fraction = positive(req.budgetFraction, 'budgetFraction', budgetDefaults.budgetFraction, 1);
  const budgetChars = Math.floor(
    positive(req.budgetChars, 'budgetChars', contextTokens * fraction * budgetDefaults.charsPerToken),
  );
  const maxEntryChars = Math.floor(
    positive(req.maxEntryChars, 'maxEntryChars', budgetDefaults.maxEntryChars),
  );
  const targetDir = resolveTargetDir(req.target ?? agentTarget[agent as keyof typeof agentTarget], {
    ...places,
    projectDir: req.projectDir ?? places.projectDir,
  });
  const { skills } = selectionOf(ctx, req);
  const described = ctx.db.prepare('SELECT description FROM skills WHERE id = ?').pluck();
  const listing = skills.map((s) => ({
    id: s.id,
    name: s.name,
    description: (described.get(s.id) as string).replace(/\s+/g, ' ').trim(),
    location: path.join(targetDir, safeFolderName(s.name), 'SKILL.md'),
  }));
  return budgetListing(listing, { agent, budgetChars, maxEntryChars });
}
