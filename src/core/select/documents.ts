// The texts a skill is scored by (METHOD.md "Scorers"): c_k as a document and m_k for the recall.

export interface SkillTexts {
  name: string;
  description: string;
  body: string;
}

/** c_k as a cross-encoder document: `name | description | body`; the scorer cuts the body to its token budget. */
export function skillDocument(skill: SkillTexts): string {
  return `${skill.name} | ${skill.description} | ${skill.body}`;
}

/** m_k, the recall text: `name | description`. */
export function recallText(skill: Pick<SkillTexts, 'name' | 'description'>): string {
  return `${skill.name} | ${skill.description}`;
}

/** Approximate token count (about four characters a token for English text). */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
