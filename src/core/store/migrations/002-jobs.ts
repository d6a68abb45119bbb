import type { Migration } from './index';

export const m002Jobs: Migration = {
  id: 2,
  name: 'jobs',
  sql: `
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued','running','done','failed','cancelled','interrupted')),
  params TEXT NOT NULL,
  progress TEXT NOT NULL DEFAULT '{}',
  result TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX jobs_status ON jobs(status);

-- Items a job has finished, so a resumed job skips them.
CREATE TABLE job_items (
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  item_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done','failed','skipped')),
  detail TEXT,
  PRIMARY KEY (job_id, item_key)
) WITHOUT ROWID;
`,
};
