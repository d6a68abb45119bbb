// The evaluation files of Anthropic's skill-creator, for one skill each: a skill's `evals/evals.json` (each prompt a
// task the skill should serve) and the trigger query sets its description optimiser reads (`should_trigger`), read
// into label items and written back from a label set. Errors name the bad entries by index and quote nothing.
import type { LabelItem } from '../../shared/api/evaluation';
import { CuratorError } from '../../shared/errors';
import { parseJsonText } from '../json-syntax';

export type SkillCreatorFormat = 'evals' | 'triggers';

export interface SkillCreatorFile {
  format: SkillCreatorFormat;
  skill: string;
  items: LabelItem[];
}

export interface SkillNameSources {
  /** Given by the caller (`--skill`, the screen's Skill field). */
  skill?: string;
  /** The folder above `evals/` when the file sits at `<skill>/evals/*.json`. */
  folderSkill?: string;
}

const maxTask = 4000;
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** A JSON array, or a JSON object with an `evals` key: skill-creator's; anything else is read as JSONL. */
export function isSkillCreatorText(text: string): boolean {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return false;
  const json = parseJsonText(trimmed);
  // A JSONL line holds a whole object; a first line of a lone brace is pretty-printed JSON with an error in it.
  if (!json.ok) return trimmed.startsWith('[') || /^\{\s*$/.test(trimmed.split('\n', 1)[0]!);
  return Array.isArray(json.value) || (isObject(json.value) && 'evals' in json.value);
}

interface EntryError {
  index: number;
  message: string;
}

function fail(errors: EntryError[], where: string): never {
  const shown = errors
    .slice(0, 5)
    .map((e) => `${where}[${e.index}]: ${e.message}`)
    .join('; ');
  throw new CuratorError(
    'VALIDATION_FAILED',
    `${errors.length} bad entr${errors.length === 1 ? 'y' : 'ies'} in the skill-creator file (${shown}${errors.length > 5 ? '; …' : ''}); nothing was imported`,
    { errors: errors.slice(0, 50) },
  );
}

const unknownShape = () =>
  new CuratorError(
    'VALIDATION_FAILED',
    'Not a skill-creator file: expected an array of {"query", "should_trigger"}, or an object with an "evals" array (evals.json or trigger queries)',
  );

/** Parses evals.json or a trigger query set; throws VALIDATION_FAILED naming every bad entry by its index. */
export function parseSkillCreatorJson(text: string, names: SkillNameSources = {}): SkillCreatorFile {
  const json = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!json.ok) throw new CuratorError('VALIDATION_FAILED', `The skill-creator file is ${json.message}`);
  const root = json.value;
  let entries: unknown[];
  let fileSkill: unknown;
  if (Array.isArray(root)) entries = root;
  else if (isObject(root) && Array.isArray(root.evals)) {
    entries = root.evals;
    fileSkill = root.skill_name;
  } else throw unknownShape();
  const where = Array.isArray(root) ? '' : 'evals';
  if (entries.length === 0)
    throw new CuratorError('VALIDATION_FAILED', 'The skill-creator file has no evals');
  if (fileSkill !== undefined && (typeof fileSkill !== 'string' || fileSkill.trim() === ''))
    throw new CuratorError('VALIDATION_FAILED', 'skill_name: expected a non-empty string');
  const skill = skillName(typeof fileSkill === 'string' ? fileSkill.trim() : undefined, names);
  // Trigger sets say should_trigger on their entries; evals.json never does.
  const triggers = Array.isArray(root) || entries.some((e) => isObject(e) && 'should_trigger' in e);
  const items = triggers ? triggerItems(entries, skill, where) : evalItems(entries, skill, where);
  return { format: triggers ? 'triggers' : 'evals', skill, items };
}

function skillName(fromFile: string | undefined, names: SkillNameSources): string {
  const given = names.skill?.trim() || undefined;
  if (fromFile && given && fromFile !== given)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      "The file's skill_name is another skill than the one given; leave the skill out or give the file's",
    );
  const skill = fromFile ?? given ?? (names.folderSkill?.trim() || undefined);
  if (!skill)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      'The skill-creator file names no skill (no skill_name): give the skill it is for (--skill NAME, or the Skill field), or keep the file at <skill>/evals/',
    );
  if (skill.length > 150) throw new CuratorError('INVALID_ARGUMENT', 'The skill name is over 150 characters');
  return skill;
}

/** The text of an entry's field: a non-empty string of at most 4000 characters, or what is wrong with it. */
function text(entry: Record<string, unknown>, keys: readonly string[]): string | { error: string } {
  const key = keys.find((k) => entry[k] !== undefined);
  const named = keys.map((k) => `"${k}"`).join(' or ');
  if (key === undefined) return { error: `needs ${named}` };
  const value = entry[key];
  if (typeof value !== 'string' || value.trim() === '') return { error: `${key} must be a non-empty string` };
  if (value.length > maxTask) return { error: `${key} is over ${maxTask} characters` };
  return value.trim();
}

function triggerItems(entries: unknown[], skill: string, where: string): LabelItem[] {
  const errors: EntryError[] = [];
  const items: LabelItem[] = [];
  entries.forEach((entry, index) => {
    if (!isObject(entry)) return errors.push({ index, message: 'expected an object' });
    const task = text(entry, ['query', 'prompt']);
    const problems = typeof task === 'string' ? [] : [task.error];
    if (typeof entry.should_trigger !== 'boolean') problems.push('should_trigger must be true or false');
    if (problems.length > 0) return errors.push({ index, message: problems.join(', ') });
    items.push({
      id: `${skill}-trigger-${index + 1}`,
      task: task as string,
      ...(entry.should_trigger ? { gold: [skill] } : { gold: [], avoid: [skill] }),
    });
  });
  if (errors.length > 0) fail(errors, where);
  return items;
}

function evalItems(entries: unknown[], skill: string, where: string): LabelItem[] {
  const errors: EntryError[] = [];
  const items: LabelItem[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (!isObject(entry)) return errors.push({ index, message: 'expected an object' });
    const task = text(entry, ['prompt']);
    const problems = typeof task === 'string' ? [] : [task.error];
    const raw = entry.id ?? index + 1;
    const validId =
      (typeof raw === 'number' && Number.isInteger(raw)) ||
      (typeof raw === 'string' && /^[\w.-]{1,40}$/.test(raw));
    if (!validId) problems.push('id must be an integer');
    else if (seen.has(String(raw))) problems.push('id appears twice');
    if (problems.length > 0) return errors.push({ index, message: problems.join(', ') });
    seen.add(String(raw));
    items.push({ id: `${skill}-eval-${String(raw)}`, task: task as string, gold: [skill] });
  });
  if (errors.length > 0) fail(errors, where);
  return items;
}

const exactlyFor = (item: LabelItem, skill: string) => item.gold.length === 1 && item.gold[0] === skill;

/** The skills a set could be exported for: each item's single gold skill, and every skill an item avoids. */
export function skillCreatorSkills(items: readonly LabelItem[], format: SkillCreatorFormat): string[] {
  const names = new Set<string>();
  for (const i of items) {
    if (i.gold.length === 1) names.add(i.gold[0]!);
    if (format === 'triggers') for (const a of i.avoid ?? []) names.add(a);
  }
  return [...names].sort();
}

/** evals.json for one skill: the items whose gold is exactly that skill, ids kept where they came from one. */
export function toSkillCreatorEvals(items: readonly LabelItem[], skill: string): string {
  const mine = items.filter((i) => exactlyFor(i, skill));
  if (mine.length === 0)
    throw new CuratorError('NOT_FOUND', `No task of the label set has exactly ${skill} as its gold skill`);
  const prefix = `${skill}-eval-`;
  const kept = mine.map((i) => (i.id.startsWith(prefix) ? i.id.slice(prefix.length) : null));
  const used = new Set(kept.filter((k) => k !== null));
  let next = Math.max(0, ...[...used].filter((k) => /^\d+$/.test(k)).map(Number)) + 1;
  const evals = mine.map((item, n) => {
    let id: string | number | null = kept[n]!;
    if (id === null) {
      while (used.has(String(next))) next++;
      id = next++;
    } else if (/^\d+$/.test(id)) id = Number(id);
    // The label set keeps no expected output or expectations: a curator's set says which skill, not what it yields.
    return { id, prompt: item.task, expected_output: '', files: [] as string[] };
  });
  return JSON.stringify({ skill_name: skill, evals }, null, 2) + '\n';
}

/** A trigger query set for one skill: gold names it → should trigger, avoid names it → should not. */
export function toTriggerQueries(items: readonly LabelItem[], skill: string): string {
  const queries = items.flatMap((i) =>
    i.gold.includes(skill)
      ? [{ query: i.task, should_trigger: true }]
      : (i.avoid ?? []).includes(skill)
        ? [{ query: i.task, should_trigger: false }]
        : [],
  );
  if (queries.length === 0)
    throw new CuratorError('NOT_FOUND', `No task of the label set names ${skill} in its gold or avoid`);
  return JSON.stringify(queries, null, 2) + '\n';
}
