import type { Migration } from './index';

// The library an evaluation run ran on: totals and digests in eval_run_library, and per skill the content hash and a
// digest of its states in eval_run_skills, so two runs' libraries can be diffed exactly (also after history is pruned).
export const m033EvalLibrary: Migration = {
  id: 33,
  name: 'eval-library',
  sql: `
CREATE TABLE eval_run_library (
  run_id INTEGER PRIMARY KEY REFERENCES eval_runs(id) ON DELETE CASCADE,
  skill_count INTEGER NOT NULL,
  content_digest TEXT NOT NULL,        -- sha256 over (name, content_hash) of every skill, by name
  states_digest TEXT NOT NULL,         -- sha256 over (name, precondition, completion) of every skill, by name
  engines TEXT NOT NULL,               -- JSON: preset, recall, scorer, llm
  settings TEXT NOT NULL,              -- JSON: the selection settings in force
  captured_at TEXT NOT NULL
);

CREATE TABLE eval_run_skills (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,                  -- the skill's name; 'name (#id)' for a second skill of the same name
  skill_id INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  states_hash TEXT NOT NULL,           -- sha256 over (precondition, completion); the same for every unparsed skill
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
`,
};
