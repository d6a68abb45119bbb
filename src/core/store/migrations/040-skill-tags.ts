import type { Migration } from './index';

// Tags on skills: free words a curator puts on skills to group and filter them ("household", "needs-work").
export const m040SkillTags: Migration = {
  id: 40,
  name: 'skill-tags',
  sql: `
CREATE TABLE skill_tags (
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (skill_id, tag)
) WITHOUT ROWID;
CREATE INDEX skill_tags_tag ON skill_tags(tag, skill_id);
`,
};
