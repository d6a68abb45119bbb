import type { Migration } from './index';

// The skill side of the fast preset: embeddings of each skill's document c_k, precondition p_k and completion e_k,
// made once (index build, state change) so a selection embeds only the task side. Keyed by the model and dtype that
// made them and the hash of the exact text, so a new model or an edited state never reuses a stale vector.
export const m012SkillSideVectors: Migration = {
  id: 12,
  name: 'skill-side-vectors',
  sql: `
CREATE TABLE skill_side_vectors (
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('document', 'precondition', 'completion')),
  model_id TEXT NOT NULL,
  dtype TEXT NOT NULL,
  dim INTEGER NOT NULL,
  text_hash TEXT NOT NULL,             -- sha256 of the text embedded (bare, as a document)
  updated_at TEXT NOT NULL,
  vector BLOB NOT NULL,                -- float32 x dim, unit length
  PRIMARY KEY (skill_id, kind)
);
CREATE INDEX skill_side_vectors_lookup ON skill_side_vectors(model_id, dtype, text_hash);
`,
};
