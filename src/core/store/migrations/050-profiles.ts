import type { Migration } from './index';

// Profiles: named sets of skills. Members are the skills matching the profile's filter (when it has one) plus the
// ones added by hand, minus the ones removed by hand; a profile made from a selection or an evaluation run keeps
// that run's answer as hand-added members and remembers where it came from.
export const m050Profiles: Migration = {
  id: 50,
  name: 'profiles',
  sql: `
CREATE TABLE profiles (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  filter TEXT,                         -- JSON ProfileFilter, or NULL for a hand-made set
  origin_kind TEXT NOT NULL CHECK (origin_kind IN ('manual','filter','selection-run','eval-run')),
  origin_id INTEGER,                   -- the selection run or evaluation run it was made from
  origin_note TEXT,                    -- e.g. the variant taken from an evaluation run
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE profile_skills (
  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  included INTEGER NOT NULL CHECK (included IN (0, 1)), -- 0: a filter match removed by hand
  added_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, skill_id)
) WITHOUT ROWID;
CREATE INDEX profile_skills_skill ON profile_skills(skill_id);
`,
};
