import type { Migration } from './index';

// Label sets (tasks with gold skills, optional interchangeable groups and a hand-typed parse) and evaluation runs
// that compare variants on them; results rows double as the finished items of a resumed run.
export const m031Evaluation: Migration = {
  id: 31,
  name: 'evaluation',
  sql: `
CREATE TABLE label_sets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  source_path TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE label_items (
  set_id INTEGER NOT NULL REFERENCES label_sets(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  task TEXT NOT NULL,
  gold TEXT NOT NULL,                  -- JSON array of skill names
  groups TEXT,                         -- JSON array of arrays: interchangeable skills per required stage
  parse TEXT,                          -- JSON {subtasks, states} typed by hand
  domain TEXT,
  edited_at TEXT,                      -- set when a person changed the item after import
  PRIMARY KEY (set_id, item_id)
) WITHOUT ROWID;

CREATE TABLE eval_runs (
  id INTEGER PRIMARY KEY,
  set_id INTEGER NOT NULL REFERENCES label_sets(id) ON DELETE CASCADE,
  job_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('running','done','failed','cancelled')),
  request TEXT NOT NULL,               -- JSON: variants, k values, recall K
  engines TEXT NOT NULL,               -- JSON: recall / cross-encoder / llm ids
  created_at TEXT NOT NULL,
  finished_at TEXT
);

CREATE TABLE eval_recall (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  recalled TEXT NOT NULL,              -- JSON array of names in recall order
  recall_at_k REAL NOT NULL,
  PRIMARY KEY (run_id, item_id)
) WITHOUT ROWID;

CREATE TABLE eval_results (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  variant TEXT NOT NULL,
  k INTEGER NOT NULL,                  -- 0 for the stage variants
  answer TEXT NOT NULL,                -- JSON array of names
  metrics TEXT NOT NULL,               -- JSON TaskMetrics
  selection_run_id INTEGER REFERENCES selection_runs(id) ON DELETE SET NULL,
  error TEXT,
  PRIMARY KEY (run_id, item_id, variant, k)
) WITHOUT ROWID;
`,
};
