// A label set written back as a file: our JSONL, or for one skill skill-creator's evals.json or trigger queries.
import type { LabelFileFormat, LabelItem } from '../../shared/api/evaluation';
import { CuratorError } from '../../shared/errors';
import { firstNames } from '../../shared/name-list';
import { toJsonl } from './label-format';
import { skillCreatorSkills, toSkillCreatorEvals, toTriggerQueries } from './skill-creator-format';

export interface LabelExport {
  content: string;
  fileName: string;
  /** The skill a skill-creator file was written for. */
  skill?: string;
  /** Items written. */
  items: number;
}

const fileSafe = (s: string) => s.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'labels';

export function exportLabels(
  setName: string,
  items: readonly LabelItem[],
  format: LabelFileFormat,
  skill?: string,
): LabelExport {
  if (format === 'jsonl')
    return { content: toJsonl(items), fileName: `${fileSafe(setName)}.jsonl`, items: items.length };
  if (format !== 'evals' && format !== 'triggers')
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Unknown label format "${String(format)}"; use jsonl, evals or triggers`,
    );
  const chosen = skill?.trim() || onlySkill(items, format);
  if (format === 'evals') {
    const content = toSkillCreatorEvals(items, chosen);
    return { content, fileName: 'evals.json', skill: chosen, items: countOf(content) };
  }
  const content = toTriggerQueries(items, chosen);
  return { content, fileName: `${fileSafe(chosen)}-triggers.json`, skill: chosen, items: countOf(content) };
}

function countOf(content: string): number {
  const json = JSON.parse(content) as unknown[] | { evals: unknown[] };
  return Array.isArray(json) ? json.length : json.evals.length;
}

function onlySkill(items: readonly LabelItem[], format: 'evals' | 'triggers'): string {
  const skills = skillCreatorSkills(items, format);
  if (skills.length === 1) return skills[0]!;
  throw new CuratorError(
    'INVALID_ARGUMENT',
    skills.length === 0
      ? 'No task of the label set has a single gold skill or a skill to avoid: nothing to write for skill-creator'
      : `Say which skill to write the file for (--skill NAME): the set has ${skills.length}, ${firstNames(skills)}`,
    { skills: skills.slice(0, 100) },
  );
}
