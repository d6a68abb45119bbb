import type { Migration } from './index';

// The Library's bulk actions as undoable changes: each verify, back-to-parsed, tag or re-parse of a selection is one
// row, and every state_history row it wrote carries its batch key, so Undo restores exactly those skills' states and
// can tell a skill changed again since. state_history is rebuilt for the batch column and the 'unverify' action.
export const m022BulkChanges: Migration = {
  id: 22,
  name: 'bulk-changes',
  sql: `
CREATE TABLE bulk_changes (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('verify','back-to-parsed','tag-add','tag-remove','reparse')),
  job_id TEXT,                         -- the re-parse job; its history rows carry the job id as their batch
  skill_ids TEXT NOT NULL DEFAULT '[]',-- JSON: the skills it changed (a re-parse: the skills it was asked to send)
  tags TEXT NOT NULL DEFAULT '[]',     -- JSON: the tags of a tag change
  pairs TEXT NOT NULL DEFAULT '[]',    -- JSON [[skillId, tag], ...]: the (skill, tag) pairs a tag change added or took off
  at TEXT NOT NULL,
  undone_at TEXT
);

CREATE TABLE state_history_new (
  id INTEGER PRIMARY KEY,
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('parse','parse-failed','reparse','edit','verify','unverify','revert')),
  before TEXT,
  after TEXT NOT NULL,
  at TEXT NOT NULL,
  batch TEXT                           -- 'bulk:<bulk_changes.id>' or a parse job's id; NULL for one-skill changes
);
INSERT INTO state_history_new (id, skill_id, action, before, after, at)
  SELECT id, skill_id, action, before, after, at FROM state_history;
DROP TABLE state_history;
ALTER TABLE state_history_new RENAME TO state_history;
CREATE INDEX state_history_skill ON state_history(skill_id, id);
CREATE INDEX state_history_batch ON state_history(batch) WHERE batch IS NOT NULL;
`,
};
