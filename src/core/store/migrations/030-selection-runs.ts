import type { Migration } from './index';

// Every selection keeps its trace (METHOD.md "The trace"), so it can be shown, compared and replayed later.
export const m030SelectionRuns: Migration = {
  id: 30,
  name: 'selection-runs',
  sql: `
CREATE TABLE selection_runs (
  id INTEGER PRIMARY KEY,
  task TEXT NOT NULL,
  variant TEXT NOT NULL,
  k INTEGER,                           -- ranked variants only
  answer TEXT NOT NULL,                -- JSON array of skill names, in answer order
  trace_version INTEGER NOT NULL,
  trace TEXT NOT NULL,                 -- the whole trace as JSON
  origin TEXT NOT NULL CHECK (origin IN ('lab','replay','eval')),
  parent_run_id INTEGER REFERENCES selection_runs(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX selection_runs_created ON selection_runs(created_at);
`,
};
