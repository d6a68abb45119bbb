// Claude Code's own fix for a listing over budget: its settings key skillOverrides (skill name → "on" | "name-only" |
// "user-invocable-only" | "off"). Skill Curator proposes one for each entry the budget preview cuts — name-only where
// the description would be dropped anyway, user-invocable-only (the /command stays) where the whole entry would go —
// and writes them into the chosen settings file, replacing only entries it wrote itself and still holding the value
// it wrote. Every other key, and every override set by hand, stays as it is, in its place.
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import {
  skillOverrideModes,
  type BudgetEntry,
  type ClaudeSettingsScope,
  type SkillOverrideChange,
  type SkillOverrideMode,
  type SkillOverridesPreview,
  type SkillOverridesRequest,
  type SkillOverridesWriteRequest,
  type SkillOverridesWriteResult,
} from '../../shared/install';
import { previewBudget } from './budget';
import type { InstallContext } from './install';
import { unifiedDiff } from '../sources/line-diff';
import { readRecord, writeRecord, type OverridesRecord } from './overrides-record';
import { selectionOf } from './selection';
import { readSettings, settingsText, writeFileAtomically, type SettingsFile } from './settings-file';
import { resolveTargetDir, type TargetPlaces } from './targets';

const KEY = 'skillOverrides';
const scopes: readonly ClaudeSettingsScope[] = ['project', 'local', 'user'];

export const defaultOverrideFor = (fate: BudgetEntry['fate']): SkillOverrideMode =>
  fate === 'name-only' ? 'name-only' : fate === 'dropped' ? 'user-invocable-only' : 'on';

export function settingsFileOf(
  scope: ClaudeSettingsScope,
  places: TargetPlaces & { projectDir?: string },
): string {
  // The skills folders' parents are the .claude folders, with the same rules for HOME and the project folder.
  const claudeDir = path.dirname(resolveTargetDir(scope === 'user' ? 'claude' : 'claude-project', places));
  return path.join(claudeDir, scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** Object.fromEntries, not assignment: a key "__proto__" from the file stays a key. */
const objectOf = (entries: Iterable<[string, unknown]>): Record<string, unknown> =>
  Object.fromEntries(entries);

/** A key's own value only: a skill may well be named "constructor". */
const own = <T>(o: Record<string, T>, key: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;

interface Plan {
  preview: SkillOverridesPreview;
  read: SettingsFile;
  text: string;
  record: OverridesRecord;
}

async function plan(ctx: InstallContext, req: SkillOverridesRequest, places: TargetPlaces): Promise<Plan> {
  if ((req.agent ?? 'claude') !== 'claude')
    throw new CuratorError(
      'INVALID_ARGUMENT',
      'skillOverrides is a Claude Code setting: use the claude agent',
    );
  const scope = req.settings ?? (req.target === 'claude-project' ? 'project' : 'user');
  if (!scopes.includes(scope))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Unknown settings file "${String(scope)}": project, local or user`,
    );
  const file = settingsFileOf(scope, { ...places, projectDir: req.projectDir ?? places.projectDir });
  const budget = previewBudget(ctx, req, places);
  const { set } = selectionOf(ctx, req);
  const chosen = req.modes ?? {};
  if (typeof chosen !== 'object' || chosen === null || Array.isArray(chosen))
    throw new CuratorError('INVALID_ARGUMENT', 'modes must be an object from skill name to override');
  for (const [name, mode] of Object.entries(chosen)) {
    if (!skillOverrideModes.includes(mode))
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `Unknown override "${String(mode)}" for ${name}: ${skillOverrideModes.join(', ')}`,
      );
    if (!budget.entries.some((e) => e.name === name))
      throw new CuratorError('INVALID_ARGUMENT', `"${name}" is not a skill of ${set}`);
  }
  const read = await readSettings(file);
  const current = read.value[KEY] ?? {};
  if (typeof current !== 'object' || current === null || Array.isArray(current))
    throw new CuratorError(
      'VALIDATION_FAILED',
      `${file}: "${KEY}" is not an object, so Skill Curator will not rewrite it; nothing was written`,
    );
  const record = await readRecord(ctx);
  const sets = own(record, file) ?? {};
  const ours = own(sets, set) ?? {};
  const anotherSetWrote = (name: string, value: unknown): string | undefined =>
    Object.keys(sets).find((s) => s !== set && own(sets[s]!, name) === value);

  // What this set wants: one mode per skill name, the first entry's when two share a name.
  const wanted = new Map<string, { mode: SkillOverrideMode; entry: BudgetEntry }>();
  for (const e of budget.entries)
    if (!wanted.has(e.name))
      wanted.set(e.name, { mode: own(chosen, e.name) ?? defaultOverrideFor(e.fate), entry: e });

  const changes = new Map<string, SkillOverrideChange>();
  const note = (
    name: string,
    c: Omit<SkillOverrideChange, 'skill' | 'skillId' | 'fate' | 'proposed'>,
  ): void => {
    const w = wanted.get(name);
    changes.set(name, {
      skill: name,
      skillId: w?.entry.skillId ?? null,
      fate: w?.entry.fate ?? null,
      proposed: w?.mode ?? 'on',
      ...c,
    });
  };
  const next: [string, unknown][] = [];
  const nowOurs = new Map<string, string>();
  for (const [name, value] of Object.entries(current as Record<string, unknown>)) {
    const want = wanted.get(name)?.mode;
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    const wrote = own(ours, name);
    const mine = wrote !== undefined && wrote === value;
    if (!mine) {
      next.push([name, value]);
      if (want === undefined) continue;
      const other = anotherSetWrote(name, value);
      note(name, {
        current: shown,
        action: 'kept',
        note: other
          ? `written for ${other}; left as it is`
          : wrote !== undefined
            ? `changed by hand since Skill Curator wrote "${wrote}"; left as it is`
            : 'set by hand; left as it is',
      });
      continue;
    }
    if (want !== undefined && want !== 'on') {
      next.push([name, want]);
      nowOurs.set(name, want);
      note(name, { current: shown, action: want === value ? 'unchanged' : 'change' });
      continue;
    }
    const other = anotherSetWrote(name, value);
    if (other) {
      next.push([name, value]);
      if (want !== undefined)
        note(name, { current: shown, action: 'kept', note: `written for ${other}; left as it is` });
    } else note(name, { current: shown, action: 'remove' });
  }
  const present = new Set(Object.keys(current));
  for (const [name, { mode, entry }] of wanted) {
    if (present.has(name)) continue;
    if (mode !== 'on') {
      next.push([name, mode]);
      nowOurs.set(name, mode);
      note(name, { current: null, action: 'add' });
    } else if (entry.fate !== 'full' || own(chosen, name) !== undefined)
      note(name, { current: null, action: 'unchanged' });
  }

  const hadKey = Object.prototype.hasOwnProperty.call(read.value, KEY);
  const top: [string, unknown][] = Object.entries(read.value).map(([k, v]) => [
    k,
    k === KEY ? objectOf(next) : v,
  ]);
  if (!hadKey && next.length > 0) top.push([KEY, objectOf(next)]);
  const text = read.text === null && next.length === 0 ? '' : settingsText(read, objectOf(top));
  const changed = text !== (read.text ?? '');

  const fileRecord: Record<string, Record<string, string>> = { ...sets, [set]: Object.fromEntries(nowOurs) };
  if (nowOurs.size === 0) delete fileRecord[set];
  const nextRecord: OverridesRecord = { ...record, [file]: fileRecord };
  if (Object.keys(fileRecord).length === 0) delete nextRecord[file];

  const order = [...wanted.keys()];
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  return {
    preview: {
      settingsFile: file,
      scope,
      digest: read.digest,
      set,
      changes: [...changes.values()].sort((a, b) => rank(a.skill) - rank(b.skill)),
      diff: unifiedDiff(read.text ?? '', text, file),
      changed,
    },
    read,
    text,
    record: nextRecord,
  };
}

export async function previewOverrides(
  ctx: InstallContext,
  req: SkillOverridesRequest,
  places: TargetPlaces = {},
): Promise<SkillOverridesPreview> {
  return (await plan(ctx, req, places)).preview;
}

export async function writeOverrides(
  ctx: InstallContext,
  req: SkillOverridesWriteRequest,
  places: TargetPlaces = {},
): Promise<SkillOverridesWriteResult> {
  const { preview, read, text, record } = await plan(ctx, req, places);
  if (req.expectDigest !== undefined && req.expectDigest !== preview.digest)
    throw new CuratorError(
      'CONFLICT',
      `${preview.settingsFile} changed since the preview; nothing was written (preview again, then write)`,
    );
  if (preview.changed) await writeFileAtomically(preview.settingsFile, text, read.mode);
  // After the settings: a failure in between leaves entries that look set by hand, which are then only ever kept.
  await writeRecord(ctx, record);
  return { ...preview, written: preview.changed };
}
