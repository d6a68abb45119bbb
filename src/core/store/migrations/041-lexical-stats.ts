import type { Migration } from './index';

// The lexical engines' library statistics, kept in the library so a large library is not tokenised again at every
// start (models/lexical/library-stats.ts). Each skill's contribution is stored beside the sums, so a skill added,
// changed, removed or with edited states changes only its own part: the refresh takes the old part out and puts the
// new one in, in batches (a stopped refresh goes on from the skills still stale).
export const m041LexicalStats: Migration = {
  id: 41,
  name: 'lexical-stats',
  sql: `
CREATE TABLE lexical_terms (
  id INTEGER PRIMARY KEY,
  term TEXT NOT NULL UNIQUE,
  df INTEGER NOT NULL DEFAULT 0,        -- skills whose name, description or body hold the term
  sdf INTEGER NOT NULL DEFAULT 0        -- sentences holding it: each skill's name + description, each parsed state
);

-- No foreign key: a skill's part must outlive the skill until the refresh has taken it back out of the sums.
CREATE TABLE lexical_skills (
  skill_id INTEGER PRIMARY KEY,
  skill_stamp TEXT NOT NULL,            -- skills.content_hash || ':' || updated_at the part was counted from
  states_stamp TEXT NOT NULL,           -- the parsed states it was counted from ('' for none)
  lengths TEXT NOT NULL,                -- JSON: field lengths (plain and as the scorer reads them), sentence lengths
  terms BLOB NOT NULL,                  -- term ids of the skill's fields, and of each of its sentences
  sentences BLOB NOT NULL
);

CREATE TABLE lexical_totals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  skills INTEGER NOT NULL,
  sentences INTEGER NOT NULL,
  lengths TEXT NOT NULL                 -- JSON: sums of the lengths in lexical_skills.lengths
);
INSERT INTO lexical_totals (id, skills, sentences, lengths)
VALUES (1, 0, 0, '{"plain":[0,0,0],"judged":[0,0,0],"sentences":0}');
`,
};
