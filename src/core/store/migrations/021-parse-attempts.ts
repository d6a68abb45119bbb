// The last failed parse attempt of a skill, kept beside its states: a failed re-parse must not wipe good states, yet
// the curator should see what the model answered and why it was refused.
import type { Migration } from './index';

export const m021ParseAttempts: Migration = {
  id: 21,
  name: 'parse-attempts',
  sql: `
CREATE TABLE parse_attempts (
  skill_id INTEGER PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
  error TEXT NOT NULL,                 -- why the attempt failed, in words
  problem TEXT,                        -- the endpoint problem (server-error, timeout, ...) when the endpoint failed
  raw_answer TEXT,                     -- the model's answer as received (API key redacted), NULL when none came
  model TEXT,
  prompt_version TEXT,
  source_hash TEXT,
  job_id TEXT,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  at TEXT NOT NULL
);
`,
};
