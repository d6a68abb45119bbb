import type { Migration } from './index';

// Parsed states of skills with their review status and history, and the cache of parsed tasks.
export const m020States: Migration = {
  id: 20,
  name: 'states',
  sql: `
CREATE TABLE skill_states (
  skill_id INTEGER PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
  precondition TEXT,                   -- NULL: the skill needs nothing (None), or no parse yet
  completion TEXT,
  status TEXT NOT NULL CHECK (status IN ('unparsed','parsed','failed','edited','verified')),
  model TEXT,                          -- the model of the last parse (kept through human edits)
  prompt_version TEXT,
  source_hash TEXT,                    -- skills.content_hash the parse was made from
  raw_answer TEXT,                     -- the model's answer as received, kept for review (also for failures)
  error TEXT,                          -- why the last parse failed, in words
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  parsed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- Never a half-filled record: states with values have a completion; the others have no values at all.
  CHECK (CASE WHEN status IN ('parsed','edited','verified') THEN completion IS NOT NULL
              ELSE precondition IS NULL AND completion IS NULL END)
);
CREATE INDEX skill_states_status ON skill_states(status);

CREATE TABLE state_history (
  id INTEGER PRIMARY KEY,
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('parse','parse-failed','reparse','edit','verify','revert')),
  before TEXT,                         -- JSON snapshot, NULL when there was no record
  after TEXT NOT NULL,                 -- JSON snapshot
  at TEXT NOT NULL
);
CREATE INDEX state_history_skill ON state_history(skill_id, id);

CREATE TABLE task_parses (
  id INTEGER PRIMARY KEY,
  cache_key TEXT NOT NULL UNIQUE,      -- task_hash | prompt_version | model
  task_hash TEXT NOT NULL,             -- sha256 over the task text and the environment note
  task TEXT NOT NULL,
  environment_note TEXT,
  prompt_version TEXT NOT NULL,        -- 'manual' for a parse typed by hand
  model TEXT NOT NULL,                 -- 'manual' for a parse typed by hand
  status TEXT NOT NULL CHECK (status IN ('parsed','failed','manual')),
  subtasks TEXT,                       -- JSON array of strings
  states TEXT,                         -- JSON array of strings, one more than subtasks
  raw_answer TEXT,
  error TEXT,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((status = 'failed') = (subtasks IS NULL AND states IS NULL))
);
CREATE INDEX task_parses_hash ON task_parses(task_hash);
`,
};
