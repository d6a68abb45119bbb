// A label file's text in whichever format it is in: our JSONL, or skill-creator's evals.json or trigger queries (told
// apart by their content, not the file name).
import type { LabelFileFormat, LabelItem } from '../../shared/api/evaluation';
import { parseLabelJsonl } from './label-format';
import { isSkillCreatorText, parseSkillCreatorJson, type SkillNameSources } from './skill-creator-format';

export interface LabelText {
  format: LabelFileFormat;
  /** The skill a skill-creator file is for. */
  skill?: string;
  items: LabelItem[];
}

export function parseLabelText(text: string, names: SkillNameSources = {}): LabelText {
  if (!isSkillCreatorText(text)) return { format: 'jsonl', items: parseLabelJsonl(text) };
  return parseSkillCreatorJson(text, names);
}
