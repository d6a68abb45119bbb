import type { Migration } from './index';

// Sources that stay in sync: Git sources, folder watches and their pending updates, what changed in a reviewed skill,
// and deleted skills kept restorable for undo.
export const m055SourcesSync: Migration = {
  id: 55,
  name: 'sources-sync',
  sql: `
CREATE TABLE git_sources (
  source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  ref TEXT,                            -- branch or tag; NULL: the repository's default branch
  subdir TEXT NOT NULL DEFAULT '',     -- folder inside the repository that holds the skills
  cache_dir TEXT NOT NULL,             -- <data>/sources/git/<key>: checkout/ is what the source imports
  commit_oid TEXT,                     -- the commit last applied
  uses_token INTEGER NOT NULL DEFAULT 0,
  checked_at TEXT
);

CREATE TABLE source_watches (
  source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);

CREATE TABLE pending_updates (
  source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  added INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  removed INTEGER NOT NULL,
  detected_at TEXT NOT NULL
);

-- A sync changed a skill whose states a person edited or verified: the states stay, this says what changed.
CREATE TABLE skill_changes (
  id INTEGER PRIMARY KEY,
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  before_text TEXT NOT NULL,
  after_text TEXT NOT NULL,
  review_status TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  dismissed_at TEXT
);
CREATE INDEX skill_changes_skill ON skill_changes(skill_id, id);

-- Deleted skills (or a source with its skills), rows as they were, so the last delete can be undone.
CREATE TABLE deleted_items (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('skills','source')),
  label TEXT NOT NULL,
  skill_count INTEGER NOT NULL,
  payload TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  restored_at TEXT
);
`,
};
