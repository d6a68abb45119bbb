import type { Migration } from './index';

export const m001Library: Migration = {
  id: 1,
  name: 'library',
  sql: `
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('folder','zip','file','jsonl')),
  uri TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL,
  environment_note TEXT,
  created_at TEXT NOT NULL,
  last_imported_at TEXT
);

CREATE TABLE skills (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  front_matter TEXT NOT NULL,          -- JSON object as written in SKILL.md
  body TEXT NOT NULL,
  full_text TEXT NOT NULL,             -- the whole SKILL.md, front matter included (c_k in METHOD.md)
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  rel_path TEXT NOT NULL,              -- folder of the skill inside its source ('' for a single file)
  content_hash TEXT NOT NULL,          -- sha256 over SKILL.md and every package file
  warnings TEXT NOT NULL DEFAULT '[]', -- JSON array of validation warnings
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source_id, rel_path)
);
CREATE INDEX skills_name ON skills(name);
CREATE INDEX skills_hash ON skills(content_hash);

CREATE TABLE skill_files (
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  path TEXT NOT NULL,                  -- relative to the skill folder
  kind TEXT NOT NULL CHECK (kind IN ('script','reference','asset','other')),
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  is_text INTEGER NOT NULL,
  text_content TEXT,                   -- kept for references/ so search can see it
  PRIMARY KEY (skill_id, path)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE skills_fts USING fts5(name, description, body, refs, tokenize = 'porter unicode61');

CREATE TABLE import_conflicts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  existing_skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  rel_path TEXT NOT NULL,
  incoming TEXT NOT NULL,              -- JSON of the skill that was not written
  created_at TEXT NOT NULL,
  resolved_at TEXT,
  resolution TEXT CHECK (resolution IN ('keep-both','replace','skip'))
);

CREATE TABLE import_reports (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  job_id TEXT,
  report TEXT NOT NULL,                -- JSON: added/updated/unchanged/removed/rejected/warnings/conflicts
  created_at TEXT NOT NULL
);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};
